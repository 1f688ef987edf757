package prune

import (
	"fmt"
	"io"
	"strings"

	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// WriteList lists the mappers a user can name: the heuristics by mode, each with the papers it
// follows and the parameters it reads with their defaults, then the presets. Each parameter is
// named by name(key), key as the sweep's grid spells it (moc_cull): the command line gives its
// flags. The entries are wrapped to width columns, the headings taking 84.
func WriteList(w io.Writer, width int, name func(key string) string) error {
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
			label := h.Name
			if h.Alias != "" {
				label += " (" + h.Alias + ")"
			}
			params, err := paramsOf(h.Params, name)
			if err != nil {
				return err
			}
			if params == "" {
				params = "none"
			}
			entry(w, width, label, h.Source, "flags: "+params)
		}
	}
	fmt.Fprintln(w, "\nPresets: a heuristic with pruning settings, used like a heuristic (-H PAMF).")
	for _, p := range Presets() {
		entry(w, width, p.Name, "preset of "+p.Base+"; "+p.Source, p.Doc)
	}
	return nil
}

// paramKey is the grid key of a heuristic.Params field.
func paramKey(field string) (string, bool) {
	switch field {
	case "KPBPercent":
		return "kpb_percent", true
	case "MOCCull":
		return "moc_cull", true
	case "MOCCandidates":
		return "moc_candidates", true
	case "Phase1All":
		return "phase1_all", true
	case "GlobalPhase2":
		return "global_phase2", true
	case "ETC":
		return "etc", true
	}
	return "", false
}

// paramsOf turns the registry's "MOCCull=0.3, ETC=false" into "--moc-cull 0.3 --etc" (with the
// command line's name): a boolean, off by default, is named alone.
func paramsOf(params string, name func(key string) string) (string, error) {
	if params == "" {
		return "", nil
	}
	var out []string
	for _, p := range strings.Split(params, ", ") {
		field, value, _ := strings.Cut(p, "=")
		key, ok := paramKey(field)
		if !ok {
			return "", fmt.Errorf("heuristics: no replay flag for parameter %s", field)
		}
		if value == "false" {
			out = append(out, name(key))
		} else {
			out = append(out, name(key)+" "+value)
		}
	}
	return strings.Join(out, " "), nil
}

// entry prints a label in a column of its own and lines of text beside it, each wrapped to
// width.
func entry(w io.Writer, width int, label string, lines ...string) {
	const indent = 14
	first := true
	for _, line := range lines {
		for _, l := range wrapWords(line, width-indent) {
			name := ""
			if first {
				name, first = label, false
			}
			fmt.Fprintf(w, "  %-*s%s\n", indent-2, name, l)
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
