package replaytest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// LongTrace writes a CSV trace of n tasks of types "0" and "1" in arrival order (0.7 apart),
// with ids 0 to n-1 and deadlines 6 after arrival, and returns its path: long.csv in a
// temporary folder. edit, when set, gives row i's line (i counts from 0; the header is line 1),
// to make a row bad or out of order.
func LongTrace(t testing.TB, n int, edit func(i int, row string) string) string {
	t.Helper()
	rows := make([]string, n)
	for i := range rows {
		at := float64(i) * 0.7
		rows[i] = strings.Join([]string{fmt.Sprint(i), []string{"0", "1"}[i%3%2], ftoa(at), ftoa(at + 6)}, ",")
		if edit != nil {
			rows[i] = edit(i, rows[i])
		}
	}
	path := filepath.Join(t.TempDir(), "long.csv")
	if err := os.WriteFile(path, []byte("task_id,task_type,arrival,deadline\n"+strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// RowAt is an edit for LongTrace that puts row in place of row k.
func RowAt(k int, row string) func(i int, r string) string {
	return func(i int, r string) string {
		if i == k {
			return row
		}
		return r
	}
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
