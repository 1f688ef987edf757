package trialset

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/petbuild"
)

// tinyPET is a two-type, two-machine PET, read from its .etc form.
func tinyPET(t *testing.T) *petbuild.PET {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tiny.etc")
	etc := "machineCount=2;taskCount=2;\n" +
		"machine=0;task=0;\n2\t0.5\n4\t0.5\n" + "machine=1;task=0;\n4\t1\n" +
		"machine=0;task=1;\n6\t1\n" + "machine=1;task=1;\n2\t0.25\n4\t0.75\n"
	if err := os.WriteFile(path, []byte(etc), 0o644); err != nil {
		t.Fatal(err)
	}
	pet, err := petbuild.ReadFile(path, petbuild.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return pet
}

// openTrial opens the trace at path, a single trial, against pet.
func openTrial(t *testing.T, pet *petbuild.PET, path string) Trial {
	t.Helper()
	trials, err := Open(Input{Spec: path}, pet, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(trials) != 1 {
		t.Fatalf("%s: %d trials, want 1", path, len(trials))
	}
	return trials[0]
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// TestStreamableStopsWhenCancelled: the checking pass counts a streamable file's tasks, and
// stops with the context's error once the context is cancelled, as a replay interrupted by
// Ctrl-C needs it to.
func TestStreamableStopsWhenCancelled(t *testing.T) {
	pet := tinyPET(t)
	const n = 3*streamableCheck + 5
	tr := openTrial(t, pet, replaytest.LongTrace(t, n, nil))
	if got, ok, err := tr.Streamable(t.Context()); got != n || !ok || err != nil {
		t.Errorf("streamable = %d, %v, %v; want %d, true, nil", got, ok, err, n)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, _, err := tr.Streamable(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("streamable after cancel: error %v, want context.Canceled", err)
	}
}

// TestStreamPassVerdict: the pass beside a streamed replay lets its result stand only for a
// file it finds streamable, and stops the replay otherwise, whether the file cannot be streamed
// (a repeated task id) or is bad (a non-numeric arrival).
func TestStreamPassVerdict(t *testing.T) {
	pet := tinyPET(t)
	const n = 50
	cases := []struct {
		name      string
		edit      func(int, string) string
		streamed  bool
		wantError bool
	}{
		{"streamable", nil, true, false},
		{"repeated task id", replaytest.RowAt(n-1, fmt.Sprintf("%d,0,%s,%s", n-2, ftoa(0.7*(n-1)), ftoa(0.7*(n-1)+6))), false, false},
		{"non-numeric arrival", replaytest.RowAt(n-1, fmt.Sprintf("%d,0,abc,9", n-1)), false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := openTrial(t, pet, replaytest.LongTrace(t, n, c.edit))
			stopped, told := false, -1
			pass := StartPass(t.Context(), tr, func() { stopped = true }, func(k int) { told = k })
			accepted := pass.Accept() == nil
			_, ok, err := pass.Wait()
			if accepted != c.streamed || ok != c.streamed || stopped == c.streamed || (told == n) != c.streamed {
				t.Errorf("accepted %v, ok %v, stopped %v, told %d tasks; want the file streamed: %v", accepted, ok, stopped, told, c.streamed)
			}
			if (err != nil) != c.wantError {
				t.Errorf("error %v, want one: %v", err, c.wantError)
			}
		})
	}
}
