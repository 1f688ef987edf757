package importers

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/trace"
)

func TestBadRowsWriteCSV(t *testing.T) {
	b := BadRows{keep: 2}
	b.add(Skipped, "no run time", &trace.InputError{File: "a.swf", Line: 7, Column: "run", Value: "-1", HasValue: true})
	b.add(Skipped, "no run time", &trace.InputError{File: "a.swf", Line: 9, Column: "run", Value: "x"}) // HasValue false: no value
	b.add(Skipped, "no run time", &trace.InputError{File: "a.swf", Line: 11})                           // beyond keep: counted, not shown
	b.add(NoLog, "failed job", nil)
	path := filepath.Join(t.TempDir(), "bad-rows.csv")
	if err := b.WriteCSV(path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"reason", "effect", "rows", "file", "line", "column", "value"},
		{"no run time", "skipped", "3", "a.swf", "7", "run", "-1"},
		{"no run time", "skipped", "3", "a.swf", "9", "run", ""},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %q", len(rows), len(want), rows)
	}
	for i, w := range want {
		if got := strings.Join(rows[i][:7], ","); got != strings.Join(w, ",") {
			t.Errorf("row %d: %s, want %s", i, got, strings.Join(w, ","))
		}
		if i > 0 && !strings.Contains(rows[i][7], "no run time") {
			t.Errorf("row %d: message %q lacks the reason", i, rows[i][7])
		}
	}
}
