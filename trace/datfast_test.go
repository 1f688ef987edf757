package trace

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/internal/hcw19"
)

// datRecord is one record of a .dat table as the readers above it see it.
type datRecord struct {
	arrival, deadline float64
	as, ds            cellStatus
	typ, raw0, raw2   string
}

// readDatRecords reads every record of a .dat file through the table interface, and the error
// that ended it (nil at io.EOF); raw, the fields as written too (what messages use).
func readDatRecords(src string, data []byte, raw bool) ([]datRecord, error) {
	t, err := newDatTable(src, bytes.NewReader(data), InflateLimit{})
	if err != nil {
		return nil, err
	}
	defer t.close()
	var out []datRecord
	for {
		if err := t.next(); err != nil {
			if err == io.EOF {
				err = nil
			}
			return out, err
		}
		var r datRecord
		r.arrival, r.as = t.number(0)
		r.deadline, r.ds = t.number(2)
		r.typ, _ = t.text(1)
		if raw {
			r.raw0, r.raw2 = t.raw(0), t.raw(2)
		}
		out = append(out, r)
	}
}

// hcw19Dats returns the .dat members of the HCW19 constant.zip, or skips.
func hcw19Dats(tb testing.TB, glob string) map[string][]byte {
	dir := hcw19.Dir(tb, "constant.zip")
	zr, err := zip.OpenReader(filepath.Join(dir, "constant.zip"))
	if err != nil {
		tb.Fatal(err)
	}
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		if ok, _ := filepath.Match(glob, f.Name); !ok {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			tb.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			tb.Fatal(err)
		}
		out[f.Name] = b
	}
	if len(out) == 0 {
		tb.Skipf("no %s in constant.zip", glob)
	}
	return out
}

// BenchmarkDatTable reads the 30 arr34k trials of HCW19's constant.zip, inflated beforehand,
// through the .dat table: the parsing a 30-trial replay of .dat files does.
func BenchmarkDatTable(b *testing.B) {
	dats := hcw19Dats(b, "arr/arr34k_*.dat")
	var bytesIn, rows int
	for b.Loop() {
		bytesIn, rows = 0, 0
		for name, data := range dats {
			recs, err := readDatRecords(name, data, false)
			if err != nil {
				b.Fatal(err)
			}
			bytesIn, rows = bytesIn+len(data), rows+len(recs)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.SetBytes(int64(bytesIn))
}

// stringDatRecords is the .dat reader as it was before the byte fields (datTable.split on a
// string copy of each line), kept as the oracle of TestDatTableSameAsStrings.
func stringDatRecords(src string, data []byte) ([]datRecord, error) {
	t, err := newDatTable(src, bytes.NewReader(data), InflateLimit{})
	if err != nil {
		return nil, err
	}
	defer t.close()
	var names interner
	var out []datRecord
	for {
		b, err := t.lr.readLine()
		if err == io.EOF {
			if t.count != t.declared {
				return out, &InputError{File: t.src, Line: t.lr.line, Msg: fmt.Sprintf(
					"the header declares taskCount=%d but the file has %d tasks (truncated?)", t.declared, t.count)}
			}
			return out, nil
		}
		if err != nil {
			return out, &InputError{File: t.src, Line: t.lr.line + 1, Msg: "read error", Err: err}
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		line := string(b)
		s := strings.TrimSpace(strings.TrimSuffix(line, ";"))
		var fields [3]string
		n := 0
		for s != "" && n <= 3 {
			i := strings.IndexAny(s, " \t")
			if i < 0 {
				i = len(s)
			}
			if n < 3 {
				fields[n] = s[:i]
			}
			n++
			s = strings.TrimLeft(s[i:], " \t")
		}
		if n != 3 {
			return out, &InputError{File: t.src, Line: t.lr.line, Value: line, HasValue: true,
				Msg: "is not an \"arrival taskType deadline;\" line"}
		}
		if !isIndex(fields[1]) {
			return out, &InputError{File: t.src, Line: t.lr.line, Column: "task_type", Value: fields[1], HasValue: true,
				Msg: "is not a task type index (a non-negative integer)"}
		}
		if len(fields[1]) > 1 && fields[1][0] == '0' {
			k, _ := strconv.Atoi(fields[1])
			fields[1] = strconv.Itoa(k)
		}
		fields[1] = names.str(fields[1])
		t.count++
		if t.count > t.declared {
			return out, &InputError{File: t.src, Line: t.lr.line, Msg: fmt.Sprintf(
				"more tasks than the header's taskCount=%d", t.declared)}
		}
		var r datRecord
		r.arrival, r.as = parseNumber(fields[0])
		r.deadline, r.ds = parseNumber(fields[2])
		r.typ, r.raw0, r.raw2 = fields[1], fields[0], fields[2]
		out = append(out, r)
	}
}

// sameDat checks the table against the string oracle on one file: the same records (NaN-free:
// parseNumber refuses NaN) and the same error, message and all.
func sameDat(t *testing.T, name string, data []byte) {
	t.Helper()
	got, gerr := readDatRecords(name, data, true)
	want, werr := stringDatRecords(name, data)
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("%s: error %v, the string reader's %v\n%q", name, gerr, werr, data)
	}
	var ge, we *InputError
	if errors.As(gerr, &ge) != errors.As(werr, &we) || (ge != nil && (ge.Value != we.Value || ge.Column != we.Column || ge.Line != we.Line)) {
		t.Fatalf("%s: error %#v, the string reader's %#v", name, ge, we)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d records, the string reader %d", name, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s record %d: %+v, the string reader %+v", name, i, got[i], want[i])
		}
	}
}

// TestDatTableSameAsStrings: the .dat table on byte fields reads what the string version it
// replaced read, record for record and error for error: on every HCW19 trial when the data is
// there, and on generated files with malformed lines of every kind the format refuses.
func TestDatTableSameAsStrings(t *testing.T) {
	t.Run("hcw19", func(t *testing.T) {
		n := 0
		for name, data := range hcw19Dats(t, "arr/*.dat") {
			sameDat(t, name, data)
			n++
		}
		t.Logf("%d HCW19 trials", n)
	})
	pieces := []string{".99", "1.41", "07", "0", "10", "176.42", "1e3", "-2", "x", "1_0", "0x1p4", "NaN", "inf",
		"1e400", "", " ", "\t", ";", ";;", "  ", "3", "00", "1234567890", "+5", "12.", "5e-324"}
	rng := rand.New(rand.NewPCG(50, 1))
	for k := range 3000 {
		rows := 1 + rng.IntN(6)
		var b strings.Builder
		declared := rows
		if rng.IntN(5) == 0 {
			declared += rng.IntN(3) - 1
		}
		fmt.Fprintf(&b, "taskCount=%d;\n", declared)
		for range rows {
			fields := 3
			if rng.IntN(8) == 0 {
				fields = rng.IntN(5)
			}
			for f := range fields {
				if f > 0 {
					b.WriteString([]string{" ", "\t", "  ", " \t"}[rng.IntN(4)])
				}
				if rng.IntN(4) == 0 {
					b.WriteString(pieces[rng.IntN(len(pieces))])
				} else {
					b.WriteString([]string{fmt.Sprint(rng.Float64() * 100), fmt.Sprint(rng.IntN(12)), fmt.Sprint(rng.Float64() * 1000)}[f%3])
				}
			}
			b.WriteString([]string{";", "; ", "", " ;", ";;"}[rng.IntN(5)])
			b.WriteString([]string{"\n", "\r\n", "\n\n"}[rng.IntN(3)])
		}
		sameDat(t, fmt.Sprintf("gen-%d.dat", k), []byte(b.String()))
	}
}

// FuzzDatTableSameAsStrings is TestDatTableSameAsStrings on any input.
func FuzzDatTableSameAsStrings(f *testing.F) {
	f.Add([]byte("taskCount=2;\n.99 10 176.42;\n1.41 07 176.84;\n"))
	f.Add([]byte("taskCount=1;\n1 x 2;\n"))
	f.Add([]byte("taskCount=1;\n1 2;\n"))
	f.Fuzz(func(t *testing.T, data []byte) { sameDat(t, "fuzz.dat", data) })
}

// TestDeclaredCountAllocatesLittle: a .dat header is believed only so far. A file that declares
// a billion tasks and holds one is read (and refused as truncated) allocating under a megabyte,
// where allocating for the declared count would take 80 GB.
func TestDeclaredCountAllocatesLittle(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadTraceFrom("big.dat", strings.NewReader("taskCount=1000000000;\n1 0 5;\n"), ReadOptions{})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("error %v, want the file refused as truncated", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("reading a one-task file allocated %d bytes", got)
	}
}

// BenchmarkReadTracesZip reads the 30 arr34k trials of HCW19's constant.zip as a replay of them
// does (ReadTraces on the zip's glob): inflating, buffering, parsing and collecting the tasks.
// Its B/op is what the reading adds to a fresh process's heap, a page fault per 4 KiB.
func BenchmarkReadTracesZip(b *testing.B) {
	spec := filepath.Join(hcw19.Dir(b, "constant.zip"), "constant.zip") + "#arr/arr34k_*.dat"
	b.ReportAllocs()
	tasks := 0
	for b.Loop() {
		trs, err := ReadTraces(spec, ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		tasks = 0
		for _, tr := range trs {
			tasks += len(tr.Tasks)
		}
	}
	b.ReportMetric(float64(tasks)*float64(b.N)/b.Elapsed().Seconds(), "tasks/s")
}
