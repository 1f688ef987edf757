package trialset

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/sweep"
)

// TestLoadLevel: a level loads the first Trials of its files, in name order, all of them when
// Trials is 0, and refuses more than there are; each trial holds its file's tasks, named by its
// file (the files are read one into the storage of the one before, the longest first); its rate
// is its own, else its label's (19k is 19,000 tasks per 88,200 ms: 0.215420), else NaN.
func TestLoadLevel(t *testing.T) {
	pet := tinyPET(t)
	dir := t.TempDir()
	for i, n := range []int{7, 5, 6} {
		var b strings.Builder
		b.WriteString("task_type,arrival,deadline\n")
		for k := range n {
			fmt.Fprintf(&b, "%d,%d,%d\n", k%2, 2*k, 2*k+9)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("t_%d.csv", i+1)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := Input{Spec: filepath.Join(dir, "t_*.csv")}
	at := func(key string) string { return "levels[0]" + key }
	for _, c := range []struct {
		lv    sweep.Level
		tasks []int // per trial loaded
		rate  float64
	}{
		{sweep.Level{Name: "19k", Trials: 2}, []int{7, 5}, 19000.0 / 88200},
		{sweep.Level{Name: "busy"}, []int{7, 5, 6}, math.NaN()},
		{sweep.Level{Name: "19k", Rate: 0.5, Trials: 1}, []int{7}, 0.5},
	} {
		lt, err := LoadLevel(c.lv, in, pet, at, func(string) {})
		if err != nil {
			t.Fatalf("%+v: %v", c.lv, err)
		}
		var tasks []int
		for i, tr := range lt.Trials {
			tasks = append(tasks, len(tr.Tasks))
			if want := filepath.Join(dir, fmt.Sprintf("t_%d.csv", i+1)); tr.Source != want {
				t.Errorf("%+v: trial %d from %s, want %s", c.lv, i, tr.Source, want)
			}
			for k, task := range tr.Tasks {
				if task.Type != k%2 || task.Arrival != float64(2*k) || task.Deadline != float64(2*k+9) {
					t.Errorf("%+v: trial %d task %d is %+v, want type %d arriving at %d, deadline %d", c.lv, i, k, task, k%2, 2*k, 2*k+9)
					break
				}
			}
		}
		if fmt.Sprint(tasks) != fmt.Sprint(c.tasks) {
			t.Errorf("%+v: trials of %v tasks, want %v", c.lv, tasks, c.tasks)
		}
		if !(math.Abs(lt.Rate-c.rate) < 1e-12 || math.IsNaN(c.rate) && math.IsNaN(lt.Rate)) {
			t.Errorf("%+v: rate %v, want %v", c.lv, lt.Rate, c.rate)
		}
	}
	_, err := LoadLevel(sweep.Level{Name: "x", Trials: 5, Trace: "t_*.csv"}, in, pet, at, func(string) {})
	if !errors.As(err, new(sweep.InputError)) || !strings.Contains(err.Error(), "levels[0].trials: 5 trials wanted, but t_*.csv names only 3 files") {
		t.Errorf("5 trials of 3 files: error %v", err)
	}
}
