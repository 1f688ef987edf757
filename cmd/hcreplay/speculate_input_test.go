package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSpeculateOutOfRange: numeric flags that would overflow, hang or exhaust memory exit 2
// with one message naming the flag or quantity, never 1 (internal error), a panic, a hang or an
// out-of-memory crash, and an empty strategy list is an error, not an empty table.
func TestSpeculateOutOfRange(t *testing.T) {
	tests := []badInputCase{
		{[]string{"--slot=1e308"}, []string{"slot length"}},
		{[]string{"--slot=1e-308"}, []string{"slot length", "too short"}},
		{[]string{"--slot=1e10"}, []string{"slot length", "shortest mean"}},
		{[]string{"--mean=1:1e308"}, []string{"mean task time"}},
		{[]string{"--mean=1:NaN"}, []string{"--mean", "finite"}},
		{[]string{"--mean=1e-308"}, []string{"mean task time"}},
		{[]string{"--alpha=1e308"}, []string{"α"}},
		{[]string{"--window=999999999999"}, []string{"load window"}},
		{[]string{"--tasks=1:999999999999"}, []string{"--tasks"}},
		{[]string{"--tasks=1:1000000"}, []string{"expected tasks"}},
		{[]string{"--gamma=1e308"}, []string{"γ"}},
		{[]string{"--sigma=1e308"}, []string{"σ"}},
		{[]string{"--eta=1e308"}, []string{"η"}},
		{[]string{"--xi=1e308"}, []string{"ξ"}},
		{[]string{"--unit=Inf"}, []string{"--unit"}},
		{[]string{"--unit=1e-308"}, []string{"--unit"}},
		{[]string{"--horizon=1e12", "--rate=1e-9"}, []string{"horizon", "shortest mean"}},
		{[]string{"-s", ""}, []string{"--strategy", "no strategy"}},
	}
	for i := range tests {
		prefix := []string{"speculate", "--machines", "300", "-q"}
		if !strings.HasPrefix(tests[i].args[0], "--horizon=") { // a flag is given once
			prefix = append(prefix, "--horizon", "100")
		}
		tests[i].args = append(prefix, tests[i].args...)
	}
	checkBadInput(t, tests, func(args []string, stdout, stderr string) {
		if strings.Contains(stderr, "internal error") {
			t.Errorf("%v: internal error:\n%s", args, stderr)
		}
		if stdout != "" {
			t.Errorf("%v: printed results before the error:\n%s", args, stdout)
		}
	})
}

// TestSpeculateSlotFinishes: slots that used to hang (0.3, whose boundaries round, and 1e-9,
// 10¹¹ boundaries) now finish with a table.
func TestSpeculateSlotFinishes(t *testing.T) {
	for _, slot := range []string{"0.3", "1e-9"} {
		out := mustCLI(t, "speculate", "--rate", "1", "--horizon", "30", "--machines", "60", "--tasks", "1:10", "-s", "none,ESE,auto", "--slot", slot, "-q")
		if !strings.Contains(out, "ESE") || !strings.Contains(out, "auto") {
			t.Errorf("--slot %s: no table:\n%s", slot, out)
		}
	}
}

// TestSpeculateTooManyMachines: --per-type multiplies the PET's machine types, so the total is
// capped like --machines.
func TestSpeculateTooManyMachines(t *testing.T) {
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "1", "--machines", "11", "--samples", "50", "-q")
	tr := filepath.Join(dir, "jobs.csv")
	writeFile(t, tr, "task_type,arrival,job_id\n0,0,a\n")
	code, _, stderr := cli(t, "speculate", "--trace", tr, "--pet", pet, "--per-type", "100000", "-s", "none", "-q")
	if code != exitUsage || !strings.Contains(stderr, "1100000 machines") || !strings.Contains(stderr, "at most 1000000") {
		t.Errorf("exit %d, want %d naming 1100000 machines and the cap:\n%s", code, exitUsage, stderr)
	}
}

// TestSpeculateMisplacedFlags: a flag of the trace workload without --trace, or of the synthetic
// workload with it, exits 2 naming the flag, instead of being ignored.
func TestSpeculateMisplacedFlags(t *testing.T) {
	pet, tr := writeTiny(t, 20)
	synth := []string{"speculate", "--horizon", "100", "--machines", "300", "-q"}
	traced := []string{"speculate", "--trace", tr, "--pet", pet, "-q"}
	cases := []badInputCase{
		{append(synth, "--per-type", "20"), []string{"--per-type goes with --trace"}},
		{append(synth, "--dist", "pareto"), []string{"--dist goes with --trace"}},
		{append(synth, "--time-unit", "s"), []string{"--time-unit goes with --trace"}},
		{append(synth, "--pet", pet), []string{"--pet goes with --trace"}},
		{append(traced, "--rate", "9"), []string{"--rate sets the synthetic workload"}},
		{append(traced, "--tasks", "1:5"), []string{"--tasks sets the synthetic workload"}},
		{append(traced, "--alpha", "3"), []string{"--alpha sets the synthetic workload"}},
	}
	checkBadInput(t, cases, nil)
	// The flags of each workload are taken with it.
	for _, args := range [][]string{append(traced, "--per-type", "2", "--dist", "pareto"), append(synth, "--rate", "5", "--alpha", "3")} {
		if code, _, stderr := cli(t, args...); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
}
