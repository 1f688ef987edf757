package trace

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// The Parquet column path against its reference, the value path (valuesOnly: every cell
// read through parquet.Value by parquet-go's ReadValues, as the reader was before the column
// path, sharing none of its decoding): the same records, bit for bit, in the same order, or
// the same error.

// pqLogRead reads data as a Parquet log, through the value path when valuesOnly; workers 1
// reads serially, more reads ahead of fn (eachAhead).
func pqLogRead(data []byte, valuesOnly bool, workers int, opt ReadOptions) ([]LogRecord, string) {
	tab, err := newParquetTable("log.parquet", bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err.Error()
	}
	tab.valuesOnly = valuesOnly
	return tableLogRead(tab, opt, workers)
}

// checkColumnPath compares the column path with the value path on data; it returns the
// number of records and the error, for a test to check it saw what it meant to test.
func checkColumnPath(t *testing.T, name string, data []byte, opt ReadOptions) (int, string) {
	t.Helper()
	want, wantErr := pqLogRead(data, true, 1, opt)
	for _, workers := range []int{1, 2} {
		got, gotErr := pqLogRead(data, false, workers, opt)
		if i := firstDiff(got, want); gotErr != wantErr || i >= 0 {
			t.Fatalf("%s, %d workers:\ngot  %d records, error %q\nwant %d records, error %q\nrecord %d: got %s, want %s",
				name, workers, len(got), gotErr, len(want), wantErr, i, recordAt(got, i), recordAt(want, i))
		}
	}
	return len(want), wantErr
}

// pqColumn is a column of a generated log: its schema node and how to make its value in a
// row (nil: null).
type pqColumn struct {
	name string
	node parquet.Node
	make func(rng *rand.Rand) any
}

// pick returns one of xs, or nil (a null) with probability pNull.
func pick[T any](rng *rand.Rand, pNull float64, xs ...T) any {
	if rng.Float64() < pNull {
		return nil
	}
	return xs[rng.IntN(len(xs))]
}

// randomPQLog writes rows of a log with randomly chosen column types and encodings, nulls,
// now and then a bad value, in row groups and pages of random small sizes.
func randomPQLog(t *testing.T, rng *rand.Rand, rows int) []byte {
	t.Helper()
	pNull := []float64{0, 0, 0.001, 0.05}[rng.IntN(4)]
	enc := func(n parquet.Node) parquet.Node {
		if rng.IntN(2) == 0 {
			return parquet.Encoded(n, &parquet.RLEDictionary)
		}
		return n
	}
	opt := func(n parquet.Node) parquet.Node {
		if pNull > 0 || rng.IntN(2) == 0 {
			return parquet.Optional(n)
		}
		return n
	}
	names := []string{"a", "b", " c ", "type10", "type2", "gpu.large"}
	if pNull > 0 {
		names = append(names, "", " ")
	}
	text := func(name string) pqColumn {
		switch rng.IntN(4) {
		case 0:
			return pqColumn{name, enc(opt(parquet.Int(32))), func(r *rand.Rand) any { return pick(r, pNull, int32(1), 2, 30, -4) }}
		case 1:
			return pqColumn{name, enc(opt(parquet.Int(64))), func(r *rand.Rand) any { return pick(r, pNull, int64(7), 1<<40) }}
		}
		return pqColumn{name, enc(opt(parquet.String())), func(r *rand.Rand) any { return pick(r, pNull, names...) }}
	}
	bad := pNull / 4
	exec := func(name string) pqColumn {
		good := func(r *rand.Rand) float64 { return math.Round(r.ExpFloat64()*1e5) / 1e3 }
		value := func(r *rand.Rand) float64 {
			if r.Float64() < bad {
				return []float64{0, -1, math.NaN(), math.Inf(1), 1e30}[r.IntN(5)]
			}
			return good(r)
		}
		switch rng.IntN(6) {
		case 0:
			return pqColumn{name, enc(opt(parquet.Leaf(parquet.FloatType))), func(r *rand.Rand) any { return pick(r, pNull, float32(value(r))) }}
		case 1:
			return pqColumn{name, enc(opt(parquet.Decimal(3, 9, parquet.Int32Type))), func(r *rand.Rand) any {
				return pick(r, pNull, int32(math.Mod(value(r)*1000, 1e9)))
			}}
		case 2:
			return pqColumn{name, enc(opt(parquet.Decimal(2, 18, parquet.Int64Type))), func(r *rand.Rand) any { return pick(r, pNull, int64(value(r)*100)) }}
		case 3:
			return pqColumn{name, enc(opt(parquet.String())), func(r *rand.Rand) any {
				return pick(r, pNull, strconv.FormatFloat(value(r), 'g', -1, 64), " 12.5", "1e3", "x")
			}}
		case 4:
			return pqColumn{name, enc(opt(parquet.Int(64))), func(r *rand.Rand) any { return pick(r, pNull, int64(value(r))) }}
		}
		return pqColumn{name, enc(opt(parquet.Leaf(parquet.DoubleType))), func(r *rand.Rand) any { return pick(r, pNull, value(r)) }}
	}
	stamp := func(name string, unit parquet.TimeUnit, scale float64, shift float64) pqColumn {
		return pqColumn{name, enc(opt(parquet.Timestamp(unit))), func(r *rand.Rand) any {
			return pick(r, pNull, int64((1e6+shift+float64(r.IntN(1000)))*scale))
		}}
	}
	cols := []pqColumn{text("task_type"), text("machine_type")}
	units := []struct {
		unit  parquet.TimeUnit
		scale float64
	}{{parquet.Millisecond, 1}, {parquet.Microsecond, 1e3}, {parquet.Nanosecond, 1e6}}
	u := units[rng.IntN(len(units))]
	switch rng.IntN(3) {
	case 0:
		cols = append(cols, exec("exec_time"))
	case 1: // derived: end - start
		cols = append(cols, stamp("start", u.unit, u.scale, 0), stamp("end", u.unit, u.scale, 2000))
	default:
		cols = append(cols, exec("exec_time"), stamp("start", u.unit, u.scale, 0), stamp("end", u.unit, u.scale, 2000))
	}
	if rng.IntN(2) == 0 {
		cols = append(cols, text("task_id"))
	}
	group := parquet.Group{}
	for _, c := range cols {
		group[c.name] = c.node
	}
	schema := parquet.NewSchema("log", group)
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, schema, parquet.MaxRowsPerRowGroup(int64(1+rng.IntN(rows))),
		parquet.PageBufferSize(64+rng.IntN(4096)), parquet.DataPageVersion(1+rng.IntN(2)))
	order := map[string]int{}
	for i, f := range schema.Fields() {
		order[f.Name()] = i
	}
	for range rows {
		row := make(parquet.Row, len(cols))
		for _, c := range cols {
			i := order[c.name]
			v := c.make(rng)
			if v == nil {
				row[i] = parquet.Value{}.Level(0, 0, i)
				continue
			}
			def := 0
			if c.node.Optional() {
				def = 1
			}
			row[i] = parquet.ValueOf(v).Level(0, def, i)
		}
		if _, err := w.WriteRows([]parquet.Row{row}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestParquetColumnPathRandom: random logs of every column type the column path reads
// (strings, INT32 and INT64 names, DOUBLE, FLOAT, DECIMAL on INT32 and INT64, numbers as
// text, TIMESTAMPs in ms, µs and ns), plain and dictionary-encoded, with and without nulls
// and bad values, in many row groups and pages.
func TestParquetColumnPathRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 2))
	runs := 300
	if testing.Short() {
		runs = 60
	}
	clean, failed := 0, 0
	for run := range runs {
		data := randomPQLog(t, rng, 1+rng.IntN(400))
		checkTypedPages(t, data)
		for _, opt := range []ReadOptions{{}, {KnownTaskTypes: []string{"a", "b", "c", "type10", "type2", "1", "2", "30", "-4", "7"}}} {
			n, err := checkColumnPath(t, "run "+strconv.Itoa(run), data, opt)
			if err == "" && n > 0 {
				clean++
			} else {
				failed++
			}
		}
	}
	// Both outcomes must be common, or the test does not test what it says.
	if clean < runs/10 || failed < runs/10 {
		t.Fatalf("%d clean reads, %d failed: the generator is off", clean, failed)
	}
}

// TestEachAheadStops: when fn fails, eachAhead returns fn's error after exactly the records
// before it, on a log of several batches, at every point from the first record to past
// the end of the first batch (the reading goroutine must stop, not block: a leak hangs
// the test).
func TestEachAheadStops(t *testing.T) {
	rows := 3*aheadBatch + 17
	recs := make([]LogRecord, rows)
	for i := range recs {
		recs[i] = LogRecord{TaskType: "a", MachineType: "m", ExecTime: float64(i + 1), Start: math.NaN(), End: math.NaN()}
	}
	p := filepath.Join(t.TempDir(), "a.parquet")
	if err := WriteLogs(p, recs, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	for _, at := range []int{1, 2, aheadBatch, aheadBatch + 1, rows} {
		lr, err := OpenLogs(Source{Name: p, Path: p}, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		err = lr.each(func(r LogRecord) error {
			n++
			if r.ExecTime != float64(n) {
				t.Fatalf("record %d has exec time %g", n, r.ExecTime)
			}
			if n == at {
				return stop
			}
			return nil
		}, 2)
		lr.Close()
		if err != stop || n != at {
			t.Fatalf("stop at %d: %d records, error %v", at, n, err)
		}
	}
}

// checkTypedPages checks that the column path takes every page of data (the generator makes
// only shapes it reads), so that the comparison above compares two paths, not one with itself.
func checkTypedPages(t *testing.T, data []byte) {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, rg := range f.RowGroups() {
		for i, cc := range rg.ColumnChunks() {
			pages := cc.Pages()
			var pg pqPage
			for {
				p, err := pages.ReadPage()
				if err != nil {
					break
				}
				leaf, _ := f.Schema().Lookup(f.Schema().Columns()[i]...)
				if !pg.load(p, byte(leaf.MaxDefinitionLevel)) {
					t.Fatalf("column %d: a page of kind %s not read typed", i, p.Type().Kind())
				}
			}
			pages.Close()
		}
	}
}

// TestParquetColumnPathFiles: the Parquet logs of this package's other tests (bad input,
// foreign writers' timestamps and decimals, its own writer), and each of them with one byte
// changed at every position past the magic: a corrupt page must give the same error, or the
// same records, on both paths.
func TestParquetColumnPathFiles(t *testing.T) {
	type foreign struct {
		Type    int32     `parquet:"task_type"`
		Machine string    `parquet:"machine_type,dict"`
		Start   time.Time `parquet:"start,timestamp(millisecond)"`
		End     time.Time `parquet:"end,timestamp(microsecond)"`
		Exec    float32   `parquet:"exec_time"`
	}
	type decimal struct {
		Type    string `parquet:"task_type"`
		Machine string `parquet:"machine_type"`
		Exec    int64  `parquet:"exec_time,decimal(3:18)"`
	}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	files := map[string][]byte{
		"good":     parquetBytes(t, []pqOptionalExec{{"a", "m", fp(1)}, {"a", "m", fp(2)}, {"b", "m", fp(3)}}),
		"no exec":  parquetBytes(t, []pqTypesOnly{{"a", "m"}}),
		"text":     parquetBytes(t, []pqStringExec{{"a", "m", "1"}, {"a", "m", " 2"}, {"a", "m", "abc"}}),
		"NaN":      parquetBytes(t, []pqOptionalExec{{"a", "m", fp(1)}, {"a", "m", fp(math.NaN())}}),
		"null":     parquetBytes(t, []pqOptionalExec{{"a", "m", fp(1)}, {"a", "m", nil}}),
		"huge":     parquetBytes(t, []pqOptionalExec{{"a", "m", fp(1)}, {"a", "m", fp(5e15)}}),
		"negative": parquetBytes(t, []pqOptionalExec{{"a", "m", fp(-1)}}),
		"empty":    parquetBytes(t, []pqOptionalExec{}),
		"foreign": parquetBytes(t, []foreign{{1, "m1", t0, t0.Add(1500 * time.Microsecond), 1.5},
			{2, "m2", t0, t0.Add(time.Second), 1000}, {2, "m2", t0, t0, 0}}),
		"decimal": parquetBytes(t, []decimal{{"a", "m", 12345}, {"b", "m", 1}}),
	}
	p := filepath.Join(t.TempDir(), "w.parquet")
	logs := []LogRecord{{TaskType: "a", MachineType: "m", ExecTime: 1, TaskID: "1", Start: 0, End: 1},
		{TaskType: "b", MachineType: "m", ExecTime: 2, Start: math.NaN(), End: math.NaN()}}
	if err := WriteLogs(p, logs, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	files["written"] = b
	for name, data := range files {
		checkColumnPath(t, name, data, ReadOptions{})
		bad := bytes.Clone(data)
		for i := 4; i < len(data)-8; i++ {
			for _, x := range []byte{0xff, 0x01} {
				bad[i] ^= x
				checkColumnPath(t, name+" byte "+strconv.Itoa(i), bad, ReadOptions{})
				bad[i] ^= x
			}
		}
	}
	if n, e := checkColumnPath(t, p, b, ReadOptions{}); n != 2 || e != "" {
		t.Fatalf("%s: %d records, error %q; want the 2 written", p, n, e)
	}
}

// TestQuickAgreesWithCheck: on every record of random Parquet and CSV logs full of bad cells,
// quick accepts exactly the records check accepts, and gives check's record bit for bit.
func TestQuickAgreesWithCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 3))
	cells := []string{"a", " b", "", " ", "7", "x", "-1", "0", "12.5", " 3.25", "1e400", "nan", "inf", "4e13", "2e15", "1e3", "0x10"}
	known := ReadOptions{KnownTaskTypes: []string{"a", "b", "7", "12.5"}, KnownMachineTypes: []string{"a", "b", "x", "0"}}
	accepted, refused := 0, 0
	for run := range 200 {
		var tab table
		var err error
		if run%2 == 0 {
			data := randomPQLog(t, rng, 1+rng.IntN(200))
			tab, err = newParquetTable("log.parquet", bytes.NewReader(data), int64(len(data)))
		} else {
			var b bytes.Buffer
			header := []string{"task_type,machine_type,exec_time", "task_type,machine_type,start,end",
				"task_type,machine_type,exec_time,start,end,task_id"}[run%6/2]
			b.WriteString(header + "\n")
			for range 1 + rng.IntN(200) {
				for c := range strings.Count(header, ",") + 1 {
					if c > 0 {
						b.WriteByte(',')
					}
					b.WriteString(cells[rng.IntN(len(cells))])
				}
				b.WriteByte('\n')
			}
			tab, err = newCSVTable("log.csv", bytes.NewReader(b.Bytes()), InflateLimit{})
		}
		if err != nil {
			t.Fatal(err)
		}
		opt := ReadOptions{}
		if run%4 >= 2 {
			opt = known
		}
		lr, err := newLogReader(tab, nil, opt)
		if err != nil {
			t.Fatal(err)
		}
		for lr.r.advance() == nil {
			q, ok := lr.quick()
			c, err := lr.check()
			if ok != (err == nil) || (ok && firstDiff([]LogRecord{q}, []LogRecord{c}) >= 0) {
				t.Fatalf("run %d: quick gives %+v, %v; check gives %+v, %v", run, q, ok, c, err)
			}
			if ok {
				accepted++
			} else {
				refused++
			}
		}
		lr.Close()
	}
	if accepted < 1000 || refused < 1000 {
		t.Fatalf("%d records accepted, %d refused: the generator is off", accepted, refused)
	}
}
