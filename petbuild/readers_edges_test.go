package petbuild

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadETCEdges reads by hand a file at the edges of what is allowed: one machine type, and
// a probability of 0 inside a cell.
func TestReadETCEdges(t *testing.T) {
	// Times 2, 6 and 4 are on a step of 2: cell (task 0) is 0.5, 0, 0.5 from 2; cell (task 1)
	// an impulse at 4.
	in := "machineCount=1;taskCount=2;\nmachine=0;task=0;\n2\t0.5\n4\t0\n6\t0.5\nmachine=0;task=1;\n4\t1\n"
	p, err := decode([]byte(in), FormatETC, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !equalStrings(p.TaskTypes(), []string{"0", "1"}) || !equalStrings(p.MachineTypes(), []string{"0"}) || p.Step() != 2 {
		t.Fatalf("types %v × %v, step %v", p.TaskTypes(), p.MachineTypes(), p.Step())
	}
	if d := p.Cell(0, 0); d.Origin() != 2 || !equalFloats(d.Probs(), []float64{0.5, 0, 0.5}) {
		t.Errorf("cell 0: %v %v", d, d.Probs())
	}
	if d := p.Cell(1, 0); d.Origin() != 4 || !equalFloats(d.Probs(), []float64{1}) {
		t.Errorf("cell 1: %v %v", d, d.Probs())
	}
}

// TestReadETCBadEdges: errors at the edges of the ranges, and errors in the last cell of a 2 × 2
// file (task 1, machine 1: the fourth cell), which must be named as that cell.
func TestReadETCBadEdges(t *testing.T) {
	const head = "machineCount=2;taskCount=2;\n"
	const first3 = "machine=0;task=0;\n2\t1\nmachine=1;task=0;\n2\t1\nmachine=0;task=1;\n2\t1\n"
	checkBad(t, FormatETC, []badCase{
		{"task at the count", head + "machine=0;task=2;\n2\t1\n", []string{"line 2", `task "2" is out of range [0, 2)`}},
		{"empty last cell", head + first3 + "machine=1;task=1;\n", []string{"line 8", "cell task=1 machine=1", "has no time"}},
		{"duplicate time in the last cell", head + first3 + "machine=1;task=1;\n2\t0.5\n2\t0.5\n", []string{"line 10", "cell task=1 machine=1", `time "2" appears twice`}},
		// 1024 × 1024 is the limit itself: the header passes, and the next line is the error.
		{"header at the cell limit", "machineCount=1024;taskCount=1024;\n2\t1\n", []string{"line 2", "comes before the first"}},
		{"header over the cell limit", "machineCount=1025;taskCount=1024;\n", []string{"line 1", "has more than 1048576 cells"}},
	})
}

// TestScanLines: lines end at LF, CRLF or a lone CR; an empty line is a line.
func TestScanLines(t *testing.T) {
	for in, want := range map[string][]string{
		"a\nb":         {"a", "b"},
		"a\r\nb":       {"a", "b"},
		"a\rb":         {"a", "b"},
		"a\n\nb":       {"a", "", "b"},
		"\nb":          {"", "b"},
		"\r\nb":        {"", "b"},
		"a\r\n\r\nb\r": {"a", "", "b"},
		"a\r\rb\n":     {"a", "", "b"},
		"ab":           {"ab"},
	} {
		sc := bufio.NewScanner(strings.NewReader(in))
		sc.Split(scanLines)
		var got []string
		for sc.Scan() {
			got = append(got, sc.Text())
		}
		if !equalStrings(got, want) || sc.Err() != nil {
			t.Errorf("%q: lines %q (%v), want %q", in, got, sc.Err(), want)
		}
	}
}

// TestScanLinesRandom reads random texts of LF, CR and a letter through scanLines, a byte at a
// time (a CR at the end of what was read then waits for the next byte) and whole, against a
// splitter of the rule written as a loop over bytes.
func TestScanLinesRandom(t *testing.T) {
	split := func(in string) []string {
		var lines []string
		line := []byte{}
		for i := 0; i < len(in); i++ {
			switch in[i] {
			case '\r':
				if i+1 < len(in) && in[i+1] == '\n' {
					i++
				}
				fallthrough
			case '\n':
				lines, line = append(lines, string(line)), []byte{}
			default:
				line = append(line, in[i])
			}
		}
		if len(line) > 0 {
			lines = append(lines, string(line))
		}
		return lines
	}
	rng := rand.New(rand.NewPCG(5, 9))
	for range 5000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = "ab\r\n"[rng.IntN(4)]
		}
		in := string(b)
		for _, r := range []io.Reader{iotest.OneByteReader(strings.NewReader(in)), strings.NewReader(in)} {
			sc := bufio.NewScanner(r)
			sc.Split(scanLines)
			var got []string
			for sc.Scan() {
				got = append(got, sc.Text())
			}
			if want := split(in); !equalStrings(got, want) || sc.Err() != nil {
				t.Fatalf("%q: lines %q (%v), want %q", in, got, sc.Err(), want)
			}
		}
	}
}

// TestReadFileRoundTrip: WriteFile and ReadFile pick the format by extension and give back the
// cells written (with names and provenance except in .etc, which has neither).
func TestReadFileRoundTrip(t *testing.T) {
	p := smallPET(t)
	for _, ext := range []string{".json", ".parquet", ".etc"} {
		path := filepath.Join(t.TempDir(), "pet"+ext)
		if err := WriteFile(path, p); err != nil {
			t.Fatal(err)
		}
		back, err := ReadFile(path, ReadOptions{})
		if err != nil || back == nil {
			t.Fatalf("%s: %v, %v", ext, back, err)
		}
		if ext != ".etc" {
			samePET(t, p, back, true)
			continue
		}
		for i := range p.NumTaskTypes() {
			for j := range p.NumMachineTypes() {
				if a, b := p.Cell(i, j), back.Cell(i, j); a.Origin() != b.Origin() || !equalFloats(a.Probs(), b.Probs()) {
					t.Errorf("etc cell (%d,%d): %v, want %v", i, j, b, a)
				}
			}
		}
	}
}

func TestReadFileMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.json")
	if _, err := ReadFile(path, ReadOptions{}); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("reading a missing file: error %v, want one that is fs.ErrNotExist", err)
	}
}

// TestMissingCells: the message lists the first ten missing cells and counts the rest.
func TestMissingCells(t *testing.T) {
	machines := make([]string, 12)
	for j := range machines {
		machines[j] = fmt.Sprint("m", j)
	}
	named := func(from, to int) string { // the cells of machines from..to, as the message lists them
		var s []string
		for j := from; j <= to; j++ {
			s = append(s, "task=t machine=m"+fmt.Sprint(j))
		}
		return strings.Join(s, ", ")
	}
	for _, c := range []struct {
		missing int // machines 1..missing have no cell
		want    string
	}{
		{0, ""},
		{2, "read f: 2 of 12 cells missing: " + named(1, 2)},
		{10, "read f: 10 of 12 cells missing: " + named(1, 10)},
		{11, "read f: 11 of 12 cells missing: " + named(1, 10) + " and 1 more"},
	} {
		raw := make([]*rawCell, 12)
		for j := range raw {
			if j < 1 || j > c.missing {
				raw[j] = &rawCell{}
			}
		}
		err := missingCells("f", []string{"t"}, machines, raw)
		if got := fmt.Sprint(err); c.want == "" && err != nil || c.want != "" && got != c.want {
			t.Errorf("%d missing: %v\nwant %s", c.missing, err, c.want)
		}
	}
}

// TestReadDeficitAtTolerance: a deficit equal to the tolerance is within it. 0.25 + 0.25 = 0.5
// exactly, so the deficit is exactly the tolerance 0.5; the cell is renormalised to 0.5, 0.5.
func TestReadDeficitAtTolerance(t *testing.T) {
	in := "machineCount=1;taskCount=1;\nmachine=0;task=0;\n2\t0.25\n4\t0.25\n"
	p, err := decode([]byte(in), FormatETC, ReadOptions{MaxDeficit: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if d := p.Cell(0, 0); !equalFloats(d.Probs(), []float64{0.5, 0.5}) || p.Provenance(0, 0).Deficit != 0.5 {
		t.Errorf("cell %v, deficit %v; want 0.5, 0.5 and 0.5", d.Probs(), p.Provenance(0, 0).Deficit)
	}
}

// TestReadJSONSizeLimit: a file of exactly the limit is read; one byte more is refused.
func TestReadJSONSizeLimit(t *testing.T) {
	n := int64(len(jsonOK))
	if _, err := readJSON(strings.NewReader(jsonOK), "x.json", ReadOptions{}, n); err != nil {
		t.Errorf("a file of exactly the limit: %v", err)
	}
	want := fmt.Sprintf("read x.json: file is larger than %d bytes", n-1)
	if _, err := readJSON(strings.NewReader(jsonOK), "x.json", ReadOptions{}, n-1); err == nil || err.Error() != want {
		t.Errorf("a file one byte over the limit: error %v, want %q", err, want)
	}
}

// TestReadJSONKeyLines: a bad key is reported on its own line, also when the comma before it
// ends the line above.
func TestReadJSONKeyLines(t *testing.T) {
	sub := func(old, new string) string {
		if !strings.Contains(jsonOK, old) {
			t.Fatalf("test bug: %q not in the base case", old)
		}
		return strings.Replace(jsonOK, old, new, 1)
	}
	checkBad(t, FormatJSON, []badCase{
		// jsonOK's first cell is on line 2; the break puts "bogus" on line 3.
		{"unknown key after a line break", sub(`"origin":2,`, "\"origin\":2,\n\"bogus\":1,"), []string{"read mem.json line 3: bogus is not a key of a PET file"}},
		{"unknown key before a line break", sub(`"origin":2,`, "\"origin\":2,\"bogus\"\n:1,"), []string{"read mem.json line 2: bogus is not a key"}},
		{"duplicate key on the next line", sub(`"time_unit":"ms",`, "\"time_unit\":\"ms\",\n  \"time_unit\":\"ms\","), []string{"read mem.json line 2: time_unit appears twice"}},
	})
}

// TestReadJSONCellLimit: 1024 × 1024 types are the cell limit itself and pass that check (the
// cell that names an unknown type is the error); 1025 × 1024 are over it.
func TestReadJSONCellLimit(t *testing.T) {
	names := func(prefix string, n int) string {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprintf("%q", fmt.Sprint(prefix, i))
		}
		return "[" + strings.Join(s, ",") + "]"
	}
	file := func(tasks, machines int) string {
		return `{"format":"hcreplay-pet","version":1,"time_unit":"ms","step":2,"task_types":` + names("t", tasks) +
			`,"machine_types":` + names("m", machines) +
			`,"cells":[{"task_type":"zz","machine_type":"m0","origin":2,"probs":[1],"samples":1,"deficit":0,"binning":""}]}`
	}
	checkBad(t, FormatJSON, []badCase{
		{"at the limit", file(1024, 1024), []string{`cells[0].task_type "zz" is not in task_types`}},
		{"over the limit", file(1025, 1024), []string{"cells more than 1048576 cells"}},
	})
}
