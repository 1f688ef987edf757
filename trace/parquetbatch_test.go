package trace

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// The batch path against its reference, the value path read serially (valuesOnly: every
// cell through parquet.Value, one record at a time, sharing neither the batch path's page
// decoding nor its name numbering): the same records, bit for bit, in the same order, then
// the same error, message and row.

// batchLogRead reads data through the batch path on workers goroutines, in runs of at most
// window records, the runs turned back into records; columnar reports whether the batch path
// took the log, fast how many runs it read by columns rather than by the row path (counted on
// a read of its own), runs how many there were.
func batchLogRead(t *testing.T, data []byte, opt ReadOptions, workers, window int) (recs []LogRecord, errText string, columnar bool, fast, runs int) {
	t.Helper()
	tab, err := newParquetTable("log.parquet", bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err.Error(), false, 0, 0
	}
	lr, err := newLogReader(tab, nil, opt)
	if err != nil {
		tab.close()
		return nil, err.Error(), false, 0, 0
	}
	defer lr.Close()
	pt, ok := lr.columnar()
	if !ok {
		return nil, "", false, 0, 0
	}
	b := lr.batcher(pt)
	b.window = window
	start := int64(0)
	for g, rg := range pt.f.RowGroups() {
		b.readGroup(g, start, func() *LogColumns { return new(LogColumns) }, func(batchResult) bool { runs++; return true })
		start += rg.NumRows()
	}
	fast = b.fastRuns
	err = lr.eachColumns(pt, func(c *LogColumns) error {
		if len(c.Pair) != len(c.ExecTime) || len(c.Pair) > window {
			t.Fatalf("a run of %d pairs and %d times, at most %d wanted", len(c.Pair), len(c.ExecTime), window)
		}
		for i, k := range c.Pair {
			p := c.Pairs[k]
			recs = append(recs, LogRecord{TaskType: p.TaskType, MachineType: p.MachineType, ExecTime: c.ExecTime[i],
				Start: math.NaN(), End: math.NaN()})
		}
		return nil
	}, workers, window)
	if err != nil {
		errText = err.Error()
	}
	return recs, errText, true, fast, runs
}

// TestParquetBatchPathRandom: random logs as TestParquetColumnPathRandom writes them (names as
// strings or integers, times of every numeric type and as text, plain and dictionary pages,
// nulls and bad values at random rows, several row groups and pages), those the batch path
// takes, read on 1 to 3 workers, in runs of a whole row group or of 1 to 100 records.
func TestParquetBatchPathRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 7))
	want := 400
	if testing.Short() {
		want = 100
	}
	opt := ReadOptions{SkipIDs: true}
	runs, clean, failed, fastRuns, slowRuns := 0, 0, 0, 0, 0
	for tries := 0; runs < want && tries < 20*want; tries++ {
		var data []byte
		if tries%2 == 0 {
			data = randomPQLog(t, rng, 1+rng.IntN(600))
		} else {
			data = hotPQLog(t, rng, 1+rng.IntN(600))
		}
		ref, refErr := pqLogRead(data, true, 1, opt)
		window := []int{1 << 16, 1 + rng.IntN(100)}[rng.IntN(2)]
		for workers := 1; workers <= 3; workers++ {
			got, gotErr, columnar, fast, n := batchLogRead(t, data, opt, workers, window)
			if !columnar {
				break
			}
			if workers == 1 {
				runs++
				fastRuns += fast
				slowRuns += n - fast
				if refErr == "" {
					clean++
				} else {
					failed++
				}
			}
			if i := firstDiff(got, ref); gotErr != refErr || i >= 0 {
				t.Fatalf("log %d, %d workers, runs of %d:\ngot  %d records, error %q\nwant %d records, error %q\nrecord %d: got %s, want %s",
					runs, workers, window, len(got), gotErr, len(ref), refErr, i, recordAt(got, i), recordAt(ref, i))
			}
		}
	}
	t.Logf("%d logs taken (%d clean, %d failed), %d runs by columns, %d by rows", runs, clean, failed, fastRuns, slowRuns)
	// Clean and failed logs, and runs read each way, must all be common, or the test does not
	// test what it says.
	if runs < want || clean < want/5 || failed < want/5 || fastRuns < want || slowRuns < want/5 {
		t.Fatalf("%d logs taken (%d clean, %d failed), %d runs by columns, %d by rows: the generator is off",
			runs, clean, failed, fastRuns, slowRuns)
	}
}

// hotPQLog writes a log of the shape pet build's logs mostly have, string names and DOUBLE
// times, plain or dictionary-encoded, required or optional, with no null and no bad value in
// most pages (the batch path's quickest loops), and in three logs of four one bad cell at a random
// row: a null, an empty name, or a time that is not positive, not finite or beyond MaxSeconds.
func hotPQLog(t *testing.T, rng *rand.Rand, rows int) []byte {
	t.Helper()
	node := func(n parquet.Node) parquet.Node {
		if rng.IntN(2) == 0 {
			n = parquet.Encoded(n, &parquet.RLEDictionary)
		}
		if rng.IntN(2) == 0 {
			n = parquet.Optional(n)
		}
		return n
	}
	schema := parquet.NewSchema("log", parquet.Group{"task_type": node(parquet.String()),
		"machine_type": node(parquet.String()), "exec_time": node(parquet.Leaf(parquet.DoubleType))})
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, schema, parquet.MaxRowsPerRowGroup(int64(1+rng.IntN(rows))),
		parquet.PageBufferSize(64+rng.IntN(4096)), parquet.DataPageVersion(1+rng.IntN(2)))
	badRow, badCol := -1, 0
	if rng.IntN(4) > 0 {
		badRow, badCol = rng.IntN(rows), min(rng.IntN(6), 2)
	}
	badTimes := []float64{0, -1, math.Copysign(0, -1), math.NaN(), math.Inf(1), -math.Inf(1), 1e30, -1e30, 2e15}
	for i := range rows {
		cells := []any{"type" + strconv.Itoa(rng.IntN(5)), "m" + strconv.Itoa(rng.IntN(3)), math.Round(rng.ExpFloat64()*1e5) / 1e3}
		if i == badRow {
			switch {
			case badCol < 2 && rng.IntN(2) == 0:
				cells[badCol] = []string{"", " "}[rng.IntN(2)]
			case badCol < 2 || rng.IntN(3) == 0:
				cells[badCol] = nil
			default:
				cells[2] = badTimes[rng.IntN(len(badTimes))]
			}
		}
		row := make(parquet.Row, 3)
		for j, f := range schema.Fields() {
			c := map[string]int{"task_type": 0, "machine_type": 1, "exec_time": 2}[f.Name()]
			def := 0
			if f.Optional() {
				def = 1
			}
			if cells[c] == nil {
				row[j] = parquet.Value{}.Level(0, 0, j)
				continue
			}
			row[j] = parquet.ValueOf(cells[c]).Level(0, def, j)
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

// TestParquetBatchPathTakes: which logs the batch path takes; the others keep the row path.
func TestParquetBatchPathTakes(t *testing.T) {
	rec := func(i int) LogRecord {
		return LogRecord{TaskType: "t" + strconv.Itoa(i%3), MachineType: "m", ExecTime: float64(i + 1), TaskID: "id" + strconv.Itoa(i),
			Start: math.NaN(), End: math.NaN()}
	}
	recs := make([]LogRecord, 50)
	for i := range recs {
		recs[i] = rec(i)
	}
	withStart := append([]LogRecord{}, recs...)
	withStart[3].Start = 1
	for _, c := range []struct {
		name string
		recs []LogRecord
		opt  ReadOptions
		want bool
	}{
		{"ids skipped", recs, ReadOptions{SkipIDs: true}, true},
		{"ids read", recs, ReadOptions{}, false},
		{"start column", withStart, ReadOptions{SkipIDs: true}, false},
		{"known types", recs, ReadOptions{SkipIDs: true, KnownTaskTypes: []string{"t0", "t1", "t2"}}, false},
		{"task type from the machine column", recs, ReadOptions{SkipIDs: true, Columns: map[string]string{"task_type": "machine_type"}}, false},
	} {
		p := t.TempDir() + "/log.parquet"
		if err := WriteLogs(p, c.recs, WriteOptions{RowGroupRows: 7}); err != nil {
			t.Fatal(err)
		}
		lr, err := OpenLogs(fileSource(p), c.opt)
		if err != nil {
			t.Fatal(err)
		}
		_, got := lr.columnar()
		lr.Close()
		if got != c.want {
			t.Errorf("%s: batch path %v, want %v", c.name, got, c.want)
		}
	}
}
