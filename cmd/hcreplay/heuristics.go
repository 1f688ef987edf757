package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
	"github.com/hcreplay/hcreplay/replay/prune"
)

// HeuristicsCmd is "hcreplay heuristics": the registry of mapping heuristics.
type HeuristicsCmd struct{}

// listWidth is the width the listing fits in: a terminal of 100 columns.
const listWidth = 100

// paramFlag is the replay flag that sets a heuristic.Params field the registry names.
func paramFlag(field string) (string, bool) {
	switch field {
	case "KPBPercent":
		return "--kpb-percent", true
	case "MOCCull":
		return "--moc-cull", true
	case "MOCCandidates":
		return "--moc-candidates", true
	case "Phase1All":
		return "--phase1-all", true
	case "GlobalPhase2":
		return "--global-phase2", true
	case "ETC":
		return "--etc", true
	}
	return "", false
}

// Run prints the heuristics by mode, each with the papers it follows and the replay flags it
// reads with their defaults, then the presets; it fits in listWidth columns.
func (c *HeuristicsCmd) Run(con *Console) error {
	w := con.Stdout
	modes := []struct {
		mode replay.Mode
		what string
	}{
		{replay.Batch, "Batch mode: at each mapping event, tasks are mapped from the batch of those waiting."},
		{replay.Immediate, "Immediate mode: each task is mapped when it arrives."},
	}
	for i, m := range modes {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, m.what)
		for _, h := range heuristic.All() {
			if h.Mode != m.mode {
				continue
			}
			name := h.Name
			if h.Alias != "" {
				name += " (" + h.Alias + ")"
			}
			flags, err := flagsOf(h.Params)
			if err != nil {
				return err
			}
			if flags == "" {
				flags = "none"
			}
			entry(w, name, h.Source, "flags: "+flags)
		}
	}
	fmt.Fprintln(w, "\nPresets: a heuristic with pruning settings, used like a heuristic (-H PAMF).")
	for _, p := range prune.Presets() {
		entry(w, p.Name, "preset of "+p.Base+"; "+p.Source, p.Doc)
	}
	fmt.Fprintln(w, "\nThe flags are those of hcreplay replay (and grid keys of sweep); boolean ones are off by")
	fmt.Fprintln(w, "default. Pruning (--prune) wraps any heuristic. The papers cited: docs/references.md.")
	return nil
}

// flagsOf turns the registry's "MOCCull=0.3, ETC=false" into "--moc-cull 0.3 --etc".
func flagsOf(params string) (string, error) {
	if params == "" {
		return "", nil
	}
	var out []string
	for _, p := range strings.Split(params, ", ") {
		field, value, _ := strings.Cut(p, "=")
		flag, ok := paramFlag(field)
		if !ok {
			return "", fmt.Errorf("heuristics: no replay flag for parameter %s", field)
		}
		if value == "false" {
			out = append(out, flag)
		} else {
			out = append(out, flag+" "+value)
		}
	}
	return strings.Join(out, " "), nil
}

// entry prints a name in a column of its own and lines of text beside it, each wrapped to
// listWidth.
func entry(w io.Writer, name string, lines ...string) {
	const indent = 14
	first := true
	for _, line := range lines {
		for _, l := range wrapWords(line, listWidth-indent) {
			label := ""
			if first {
				label, first = name, false
			}
			fmt.Fprintf(w, "  %-*s%s\n", indent-2, label, l)
		}
	}
}

// wrapWords breaks s into lines of at most width runes, at spaces.
func wrapWords(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(word)) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}
