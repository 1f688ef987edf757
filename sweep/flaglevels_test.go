package sweep

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestFlagLevels(t *testing.T) {
	g := NewGrid()
	g.SetLevels([]Level{{Name: "old", Trace: "x"}}, []string{"grid"})
	f := FlagLevels{Traces: []string{"19k=t/arr19k_*.dat"}, Generate: []string{"25k"}, Deadline: "tight"}
	if err := f.Set(g); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("t/arr19k_*.dat")
	if len(g.Levels) != 2 {
		t.Fatalf("levels %+v, want the two of the flags in place of the grid's", g.Levels)
	}
	tr, gen := g.Levels[0], g.Levels[1]
	if tr.Name != "19k" || tr.Trace != abs || tr.Trials != 0 || tr.Deadline != "tight" || tr.Seed != 1 {
		t.Errorf("trace level %+v", tr)
	}
	// A generated level: 30 trials unless --trials says, DefaultGenerate with the label and deadline.
	if gen.Name != "25k" || gen.Trials != 30 || gen.Generate == nil || gen.Generate.Level != "25k" || gen.Generate.Deadline != "tight" || gen.Generate.Tasks != 800 {
		t.Errorf("generated level %+v (%+v)", gen, gen.Generate)
	}
	if w := g.Where("levels[1].generate"); w != "--generate 25k" {
		t.Errorf("Where = %q, want the flag", w)
	}
	keep := NewGrid()
	keep.SetLevels([]Level{{Name: "old"}}, []string{"grid"})
	if err := (FlagLevels{}).Set(keep); err != nil || len(keep.Levels) != 1 {
		t.Errorf("no level flags: %v, %+v; want the grid's levels kept", err, keep.Levels)
	}
	for _, c := range []struct {
		f    FlagLevels
		want string
	}{
		{FlagLevels{Trials: 3}, "--trials and --deadline apply to levels given by --trace or --generate"},
		{FlagLevels{Traces: []string{"nospec"}}, "--trace nospec: want NAME=SPEC"},
		{FlagLevels{Traces: []string{"=x"}}, "--trace =x: want NAME=SPEC"},
	} {
		if err := c.f.Set(NewGrid()); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.f, err, c.want)
		}
	}
}
