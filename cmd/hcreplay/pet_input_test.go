package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/petbuild"
)

// badGridPET is a one-cell JSON PET with the given step and origin.
func badGridPET(step, origin string) string {
	return fmt.Sprintf(`{"format":"hcreplay-pet","version":1,"step":%s,"task_types":["a"],"machine_types":["x"],`+
		`"cells":[{"task_type":"a","machine_type":"x","origin":%s,"probs":[1],"samples":1,"deficit":0,"binning":""}]}`, step, origin)
}

// TestPetInputLimits runs the pet commands (and replay, which reads a PET) on inputs out of
// range: each must exit 2 with a message that names the value, write nothing, and never
// name the writer's temporary file.
func TestPetInputLimits(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		writeFile(t, path, text)
		return path
	}
	origin := write("origin.json", badGridPET("2", "1e300"))
	far := write("far.json", badGridPET("2", "4e9"))
	coarse := write("coarse.json", badGridPET("1e300", "0"))
	fine := write("fine.json", badGridPET("1e-300", "0"))
	var log strings.Builder
	log.WriteString("task_type,machine_type,exec_time\n")
	for i := range 60 {
		fmt.Fprintf(&log, "a,x,%d\n", 40+i)
	}
	logs := write("log.csv", log.String())
	tr := write("t.csv", "task_type,arrival,deadline\na,1,50\n")
	good := filepath.Join(dir, "good.json")
	mustCLI(t, "pet", "synth", "--out", good, "--types", "2", "--machines", "2")
	out := filepath.Join(dir, "out.json")
	missing := filepath.Join(dir, "nodir", "x.json")
	synth := func(args ...string) []string { return append([]string{"pet", "synth", "--out", out}, args...) }
	build := func(args ...string) []string { return append([]string{"pet", "build", logs, "--out", out}, args...) }
	cases := []badInputCase{
		{synth("--types", "999999999999"), []string{"999999999999 task types exceed the limit of 1048576 cells"}},
		{synth("--machines", "999999999999"), []string{"999999999999 machine types exceed"}},
		{synth("--samples", "999999999999"), []string{"999999999999 samples a cell exceed the limit of 10000000"}},
		{synth("--types", "100000"), []string{"--types 100000", "400000000 draws exceed the limit of 20000000"}},
		{synth("--samples", "100000000"), []string{"100000000 samples a cell exceed"}},
		{synth("--types", "1000", "--machines", "1000"), []string{"500000000 draws exceed"}},
		{synth("--step", "999999999999"), []string{"step 9.99999999999e+11 is not shorter than the largest mean execution time"}},
		{synth("--step", "1e308"), []string{"step 1e+308 exceeds 1e+15"}},
		{synth("--step", "1e-12"), []string{"step 1e-12 is below 1e-09"}},
		{synth("--step", "0"), []string{"--step 0"}},
		{build("--min-samples=-1"), []string{"--min-samples -1"}},
		{build("--binning", "width:1e308"), []string{`binning "width:1e308": width 1e308 exceeds 1e+15`}},
		{build("--binning", "width:1e12"), []string{"bin width 1e+12 is not shorter than the largest mean execution time 69.5"}},
		{build("--merge", "999999999999"), []string{"merged step", "× 999999999999", "is not shorter"}},
		{build("--merge=-2"), []string{"--merge -2"}},
		{[]string{"pet", "show", origin}, []string{"origin.json", "cell task=a machine=x", `origin "1e+300" exceeds 1e+15`}},
		{[]string{"pet", "show", far}, []string{"far.json", "cell task=a machine=x", `origin "4e+09" is 2e+09 steps of 2`}},
		{[]string{"pet", "convert", origin, out}, []string{"origin.json", "cell task=a machine=x", `"1e+300"`}},
		{[]string{"replay", "--pet", origin, "--trace", tr, "-H", "MM"}, []string{"origin.json", "cell task=a machine=x", `"1e+300"`}},
		{[]string{"pet", "show", coarse}, []string{"coarse.json", `step "1e+300" exceeds 1e+15`}},
		{[]string{"pet", "show", fine}, []string{"fine.json", `step "1e-300" is below 1e-09`}},
		{[]string{"pet", "synth", "--out", missing}, []string{missing, "does not exist"}},
		{[]string{"pet", "convert", good, missing}, []string{missing, "does not exist"}},
		{[]string{"pet", "build", logs, "--out", missing}, []string{missing, "does not exist"}},
		{[]string{"pet", "synth", "--out", filepath.Join(logs, "x.json")}, []string{filepath.Join(logs, "x.json"), "is not a folder"}},
	}
	checkBadInput(t, cases, func(args []string, _, errb string) {
		if strings.Contains(errb, ".tmp-") {
			t.Errorf("%v: message %q names a temporary file", args, errb)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v: wrote %s", args, out)
		}
	})
}

// TestPetSynthAcceptsBounds checks the other side of the limits: values just inside them
// are accepted and take effect.
func TestPetSynthAcceptsBounds(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct {
		args           []string
		tasks, samples int
		step           float64
	}{
		{[]string{"--types", "1", "--machines", "1", "--samples", "10"}, 1, 10, 2},
		{[]string{"--types", "3", "--machines", "2", "--step", "5"}, 3, 500, 5},
	} {
		out := filepath.Join(dir, fmt.Sprintf("p%d.json", i))
		mustCLI(t, append([]string{"pet", "synth", "--out", out}, c.args...)...)
		p, err := petbuild.ReadFile(out, petbuild.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if p.NumTaskTypes() != c.tasks || p.Provenance(0, 0).Samples != c.samples || p.Step() != c.step {
			t.Errorf("%v: %d task types, %d samples, step %v", c.args, p.NumTaskTypes(), p.Provenance(0, 0).Samples, p.Step())
		}
	}
}

// TestPetSynthStopsWhenCancelled checks that `pet synth` honours its context: with the
// largest cells allowed, an uncancelled run takes seconds and writes the file.
func TestPetSynthStopsWhenCancelled(t *testing.T) {
	out := filepath.Join(t.TempDir(), "pet.json")
	cmd := petSynthCLI{PetSynthCmd{Out: out, Seed: 1, Types: 2, Machines: 1, Samples: petbuild.MaxSynthSamples, Step: 2}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var con Console
	err := cmd.Run(ctx, &con)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("a cancelled synthesis wrote %s", out)
	}
}
