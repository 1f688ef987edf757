package main

import (
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/hcreplay/hcreplay/replay/heuristic"
	"github.com/hcreplay/hcreplay/replay/prune"
)

// HeuristicsCmd is "hcreplay heuristics": the registry of mapping heuristics as a table.
type HeuristicsCmd struct{}

// Run prints one row per heuristic, batch ones first: its name (and alias), mode, the paper it
// follows, and the parameters it reads with their defaults.
func (c *HeuristicsCmd) Run(con *Console) error {
	t := tablewriter.NewTable(con.Stdout,
		tablewriter.WithHeaderAutoFormat(tw.Off), // keep "MOCCull=0.3" and "§3.3.1.1" as written
		tablewriter.WithRowAutoWrap(tw.WrapNone))
	t.Header("name", "mode", "source", "parameters")
	for _, h := range heuristic.All() {
		name := h.Name
		if h.Alias != "" {
			name += " (" + h.Alias + ")"
		}
		if err := t.Append([]string{name, h.Mode.String(), h.Source, h.Params}); err != nil {
			return err
		}
	}
	for _, p := range prune.Presets() {
		if err := t.Append([]string{p.Name, "preset of " + p.Base, p.Source, p.Doc}); err != nil {
			return err
		}
	}
	return t.Render()
}
