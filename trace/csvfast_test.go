package trace

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// The CSV fast path against its reference, encoding/csv + strconv (the reader as it was
// before, newCSVTableSized with size 0, which shares no parsing code with the fast path): the
// same records, bit for bit, in the same order, or the same error, read serially and in
// parallel chunks of every size from a byte up.

// csvLogRead reads data as a CSV log: size 0 is the reference; workers 1 reads serially.
func csvLogRead(data []byte, size, workers int) ([]LogRecord, string) {
	tab, err := newCSVTableSized("log.csv", bytes.NewReader(data), InflateLimit{}, size)
	if err != nil {
		return nil, err.Error()
	}
	return tableLogRead(tab, ReadOptions{}, workers)
}

// tableLogRead reads every record of tab as a log with lr.each and workers, and closes it.
func tableLogRead(tab table, opt ReadOptions, workers int) ([]LogRecord, string) {
	lr, err := newLogReader(tab, nil, opt)
	if err != nil {
		tab.close()
		return nil, err.Error()
	}
	defer lr.Close()
	var recs []LogRecord
	err = lr.each(func(r LogRecord) error {
		recs = append(recs, r)
		return nil
	}, workers)
	if err != nil {
		return recs, err.Error()
	}
	return recs, ""
}

// firstDiff is the index of the first record that differs between a and b, bit for bit; -1
// when none does.
func firstDiff(a, b []LogRecord) int {
	bits := math.Float64bits
	for i := range min(len(a), len(b)) {
		x, y := a[i], b[i]
		if x.TaskType != y.TaskType || x.MachineType != y.MachineType || x.TaskID != y.TaskID || x.MachineID != y.MachineID ||
			bits(x.ExecTime) != bits(y.ExecTime) || bits(x.Start) != bits(y.Start) || bits(x.End) != bits(y.End) {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// recordAt prints record i of recs, or that there is none.
func recordAt(recs []LogRecord, i int) string {
	if i < 0 || i >= len(recs) {
		return "none"
	}
	return fmt.Sprintf("%+v", recs[i])
}

// checkFastCSV compares the fast path, serial and parallel at chunk sizes sizes, with the
// reference on data.
func checkFastCSV(t *testing.T, data []byte, sizes []int) {
	t.Helper()
	want, wantErr := csvLogRead(data, 0, 1)
	for _, size := range sizes {
		for _, workers := range []int{1, 3} {
			got, gotErr := csvLogRead(data, size, workers)
			if i := firstDiff(got, want); gotErr != wantErr || i >= 0 {
				t.Fatalf("chunks of %d bytes, %d workers on %.200q:\ngot  %d records, error %q\nwant %d records, error %q\nrecord %d: got %s, want %s",
					size, workers, data, len(got), gotErr, len(want), wantErr, i, recordAt(got, i), recordAt(want, i))
			}
		}
	}
}

func TestCSVFastEdgeCases(t *testing.T) {
	const hdr = "task_type,machine_type,exec_time\n"
	for _, tc := range []struct {
		name, data string
		exec       []float64 // hand-read exec_time values, when the log reads
		err        string    // part of the error, when it does not
	}{
		{"plain", hdr + "a,m,1.5\nb,n,2\n", []float64{1.5, 2}, ""},
		{"crlf", strings.ReplaceAll(hdr+"a,m,1.5\nb,n,2\n", "\n", "\r\n"), []float64{1.5, 2}, ""},
		{"no final newline", hdr + "a,m,1.5\nb,n,2", []float64{1.5, 2}, ""},
		{"cr at the end", hdr + "a,m,1.5\nb,n,2\r", []float64{1.5, 2}, ""},
		{"empty lines", "\n\r\n" + hdr + "\na,m,1.5\n\n\r\nb,n,2\n\n", []float64{1.5, 2}, ""},
		{"bom", "\ufeff" + hdr + "a,m,3\n", []float64{3}, ""},
		{"comments and unit", "# a log\n# time_unit=s\n" + hdr + "a,m,0.25\n", []float64{250}, ""},
		{"leading spaces", "task_type, machine_type,\texec_time\n a,\u00a0m,  7\n", []float64{7}, ""},
		{"trailing space", hdr + "a ,m,7 \n", []float64{7}, ""},
		{"exponents", hdr + "a,m,1e3\na,m,2.5E-1\na,m,1e+2\n", []float64{1000, 0.25, 100}, ""},
		{"dots", hdr + "a,m,.5\na,m,5.\na,m,+0.125\na,m,007\n", []float64{0.5, 5, 0.125, 7}, ""},
		// Past the fast path: 9007199254740993 is 2^53+1, 0.1 and 19 zeros and a 1 has 21
		// digits. The expected values are Go constants, rounded by the compiler.
		{"many digits", hdr + "a,m,9007199.254740993\na,m,0.10000000000000000001\na,m,123456789.123456789\n",
			[]float64{9007199.254740993, 0.1, 123456789.123456789}, ""},
		{"negative", hdr + "a,m,-1.5\n", nil, "line 2"},
		{"zero", hdr + "a,m,-0\n", nil, "line 2"},
		{"hex", hdr + "a,m,0x10\n", nil, "line 2"},
		{"underscore", hdr + "a,m,1_0\n", nil, "line 2"},
		{"inf", hdr + "a,m,2\na,m,inf\n", nil, "line 3"},
		{"nan", hdr + "a,m,NaN\n", nil, "line 2"},
		{"out of range", hdr + "a,m,1e400\n", nil, "line 2"},
		{"empty field", hdr + "a,,1\n", nil, "line 2"},
		{"empty time", hdr + "a,m,\n", nil, "line 2"},
		{"too few fields", hdr + "a,m,1\n\na,m\n", nil, "line 4"},
		{"too many fields", hdr + "a,m,1,2\n", nil, "line 2"},
		{"quoted", hdr + "a,m,1\n\"b,c\",m,2\n\"d\ne\",\"m\",\"3\"\nf,m,4\n", []float64{1, 2, 3, 4}, ""},
		{"quoted header", "\"task_type\",machine_type,exec_time\na,m,1\n", []float64{1}, ""},
		{"bare quote", hdr + "a,m,1\nb\"c,m,2\n", nil, "line 3"},
		{"open quote", hdr + "a,m,1\n\"b,m,2\n", nil, "line 3"},
		{"quote after errors", hdr + "a,m,x\n\"b\",m,2\n", nil, "line 2"},
		{"header only", hdr, nil, "no records"},
		{"empty", "", nil, "no header"},
		{"blank lines only", "\n\n\r\n", nil, "no header"},
		{"missing column", "task_type,exec_time\na,1\n", nil, "machine_type"},
		{"duplicate column", "task_type,machine_type,exec_time,exec_time\na,m,1,2\n", nil, "duplicate"},
		{"start and end", "task_type,machine_type,start,end\na,m,1.25,3.5\n", []float64{2.25}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.data)
			checkFastCSV(t, data, []int{1, 2, 3, 5, 8, 13, 64, csvChunk})
			recs, err := csvLogRead(data, csvChunk, 2)
			if !strings.Contains(err, tc.err) || (tc.err == "") != (err == "") {
				t.Fatalf("error %q, want one with %q", err, tc.err)
			}
			if tc.err != "" {
				return
			}
			got := make([]float64, len(recs))
			for i, r := range recs {
				got[i] = r.ExecTime
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.exec) {
				t.Fatalf("exec times %v, want %v", got, tc.exec)
			}
		})
	}
}

// TestCSVFastLongLog reads a log of many chunks, with a quote near the end, in parallel.
func TestCSVFastLongLog(t *testing.T) {
	var b strings.Builder
	b.WriteString("task_id,task_type,machine_type,exec_time\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "t%d,type%d,m%d,%d.%03d\n", i, i%7, i%3, 1+i%997, i%1000)
		if i == 19000 {
			b.WriteString("\"q\",\"type,1\",m1,3\n")
		}
	}
	checkFastCSV(t, []byte(b.String()), []int{100, 4096, csvChunk})
}

// FuzzCSVFast compares the fast path with encoding/csv + strconv on arbitrary input, as a
// log (records or error) and as a table (every field, as text and as a number).
func FuzzCSVFast(f *testing.F) {
	f.Add([]byte("task_type,machine_type,exec_time\na,m,1.5\r\nb, n,2e3\n\n\"c\",m,3\n"), uint8(3))
	f.Add([]byte("# time_unit=s\ntask_type,machine_type,start,end,task_id\na,m,1,2.5,x\nb,m,.5,7,\n"), uint8(1))
	f.Add([]byte("a,b\n1,2\n3\n"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		want, wantErr := csvLogRead(data, 0, 1)
		for _, workers := range []int{1, 2} {
			got, gotErr := csvLogRead(data, int(size)+1, workers)
			if i := firstDiff(got, want); gotErr != wantErr || i >= 0 {
				t.Fatalf("%d workers: error %q, want %q; record %d: got %s, want %s", workers, gotErr, wantErr, i, recordAt(got, i), recordAt(want, i))
			}
		}
		if g, w := csvFields(data, int(size)+1), csvFields(data, 0); g != w {
			t.Fatalf("table:\ngot  %s\nwant %s", g, w)
		}
	})
}

// csvFields prints every record of data read as a table: each field raw, as text and as a
// number, and the record's line; then the error that ended it.
func csvFields(data []byte, size int) string {
	tab, err := newCSVTableSized("t.csv", bytes.NewReader(data), InflateLimit{}, size)
	if err != nil {
		return err.Error()
	}
	defer tab.close()
	var b strings.Builder
	fmt.Fprintln(&b, tab.columns())
	for range 1000 {
		if err := tab.next(); err != nil {
			b.WriteString(err.Error())
			break
		}
		line, _ := tab.where()
		fmt.Fprintf(&b, "%d:", line)
		for c := range tab.columns() {
			s, st := tab.text(c)
			v, vst := tab.number(c)
			fmt.Fprintf(&b, " %q %q %d %x %d", tab.raw(c), s, st, math.Float64bits(v), vst)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// FuzzParseNumberBytes checks the number fast path against strconv.ParseFloat, bit for bit.
func FuzzParseNumberBytes(f *testing.F) {
	for _, s := range []string{"1.5", "-0", ".97", "5.", "+3", "9007199254740993", "0.1", "1e5", "12345678901234567890", "0x1p3", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, st := parseNumberBytes([]byte(s))
		w, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if st == cellOK && (err != nil || math.Float64bits(v) != math.Float64bits(w)) {
			t.Fatalf("parseNumberBytes(%q) = %v, strconv: %v, %v", s, v, w, err)
		}
		if wv, wst := parseNumber(s); wst != st || math.Float64bits(wv) != math.Float64bits(v) {
			t.Fatalf("parseNumberBytes(%q) = %v, %d; parseNumber: %v, %d", s, v, st, wv, wst)
		}
	})
}

// TestCSVFastNoAllocs checks the fast path allocates nothing per record of names and numbers.
func TestCSVFastNoAllocs(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("task_type,machine_type,exec_time\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "type%d,m%d,%d.5\n", i%5, i%2, i)
	}
	tab, err := newCSVTableSized("t.csv", bytes.NewReader(b.Bytes()), InflateLimit{}, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.close()
	tab.next() // the first records intern the names
	for range 20 {
		tab.next()
	}
	allocs := testing.AllocsPerRun(500, func() {
		if err := tab.next(); err != nil {
			t.Fatal(err)
		}
		tab.text(0)
		tab.text(1)
		tab.number(2)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per record, want 0", allocs)
	}
}

// TestSkipIDs checks that ReadOptions.SkipIDs empties the ids and nothing else, and that a
// mapped id column must still exist.
func TestSkipIDs(t *testing.T) {
	const log = "task_type,machine_type,exec_time,task_id,machine_id\na,m,1.5,t1,m-1\nb,n,2,t2,n-1\n"
	read := func(opt ReadOptions) ([]LogRecord, error) {
		lr, err := NewLogReader("log.csv", strings.NewReader(log), opt)
		if err != nil {
			return nil, err
		}
		defer lr.Close()
		var recs []LogRecord
		for rec, err := range lr.All() {
			if err != nil {
				return nil, err
			}
			recs = append(recs, rec)
		}
		return recs, nil
	}
	all, err := read(ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	skipped, err := read(ReadOptions{SkipIDs: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range all {
		if all[i].TaskID == "" || all[i].MachineID == "" {
			t.Fatalf("record %d without SkipIDs has no ids: %+v", i, all[i])
		}
		all[i].TaskID, all[i].MachineID = "", ""
	}
	if i := firstDiff(skipped, all); i >= 0 {
		t.Fatalf("record %d: %s, want %s", i, recordAt(skipped, i), recordAt(all, i))
	}
	_, err = read(ReadOptions{SkipIDs: true, Columns: map[string]string{"task_id": "job"}})
	if err == nil || !strings.Contains(err.Error(), "job (task_id)") {
		t.Fatalf("mapped id column missing: error %v", err)
	}
}
