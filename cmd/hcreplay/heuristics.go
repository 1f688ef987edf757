package main

import (
	"fmt"

	"github.com/hcreplay/hcreplay/replay/prune"
)

// HeuristicsCmd is "hcreplay heuristics": the registry of mapping heuristics.
type HeuristicsCmd struct{}

// listWidth is the width the listing fits in: a terminal of 100 columns.
const listWidth = 100

// Run prints the heuristics by mode, each with the papers it follows and the replay flags it
// reads with their defaults, then the presets (prune.WriteList); it fits in listWidth columns.
func (c *HeuristicsCmd) Run(con *Console) error {
	w := con.Stdout
	if err := prune.WriteList(w, listWidth, flagOf); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nThe flags are those of hcreplay replay (and grid keys of sweep); boolean ones are off by")
	fmt.Fprintln(w, "default. Pruning (--prune) wraps any heuristic. The papers cited: docs/references.md.")
	return nil
}
