package petbuild

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/hcreplay/hcreplay/trace"
)

// fitLogsByRecords is the reference for FitLogs: each record read by trace.EachLog (the row
// path) and added by Add, one at a time, counted, with a progress call and a context check
// every step records, as FitLogs did before it read Parquet logs by columns.
func fitLogsByRecords(ctx context.Context, specs []string, read trace.ReadOptions, opt FitOptions, progress func(int), step int) (*PET, LogStats, error) {
	f, err := NewFitter(opt)
	if err != nil {
		return nil, LogStats{}, err
	}
	var st LogStats
	for _, spec := range specs {
		err := trace.EachLog(spec, read, func(r trace.LogRecord) error {
			st.Rows++
			if st.Rows%step == 0 {
				progress(st.Rows)
				if ctx.Err() != nil {
					return ctx.Err()
				}
			}
			if r.ExecTime < 1 {
				st.SubMillisecond++
			}
			return f.Add(Sample{TaskType: r.TaskType, MachineType: r.MachineType, Time: r.ExecTime})
		})
		if err != nil {
			return nil, st, err
		}
	}
	pet, err := f.PET()
	return pet, st, err
}

// writeRandomParquetLog writes rows records of up to 5 task types (and in one log of four a
// rare one) on up to 3 machine types with trace's writer, in row groups of a random size; in
// one log of three, one record has a time beyond trace.MaxSeconds, which the reader refuses
// (the reader's other refusals, on every page shape, are trace's tests').
func writeRandomParquetLog(t *testing.T, rng *rand.Rand, path string, rows int) {
	t.Helper()
	w, err := trace.CreateLogs(path, trace.WriteOptions{RowGroupRows: int64(1 + rng.IntN(rows))})
	if err != nil {
		t.Fatal(err)
	}
	tasks, machines := 1+rng.IntN(5), 1+rng.IntN(3)
	scale := []float64{0.5, 20, 1000}[rng.IntN(3)]
	badRow, rare := -1, rng.IntN(4) == 0
	if rng.IntN(3) == 0 {
		badRow = rng.IntN(rows)
	}
	for i := range rows {
		r := trace.LogRecord{TaskType: "t" + strconv.Itoa(rng.IntN(tasks)), MachineType: "m" + strconv.Itoa(rng.IntN(machines)),
			ExecTime: math.Round(rng.ExpFloat64()*scale*1e3)/1e3 + 1e-3, Start: math.NaN(), End: math.NaN()}
		if rare && rng.IntN(500) == 0 {
			r.TaskType = "rare"
		}
		if i == badRow {
			r.ExecTime = 1e30
		}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestFitLogsBatchPath: FitLogs, which reads Parquet logs by columns, against
// fitLogsByRecords on random Parquet logs, one or two per fit, under binning rules, bins and
// widths (some too fine for the times' span), type lists that miss a type, and a context
// cancelled at a progress call: the same PET byte for byte, or the same error; the same
// counts; the same progress calls.
func TestFitLogsBatchPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 11))
	runs := 300
	if testing.Short() {
		runs = 80
	}
	dir := t.TempDir()
	read := trace.ReadOptions{Unit: trace.Millisecond, SkipIDs: true}
	outcomes := map[string]int{}
	for run := range runs {
		specs := []string{filepath.Join(dir, strconv.Itoa(run)+"a.parquet")}
		if rng.IntN(3) == 0 {
			specs = append(specs, filepath.Join(dir, strconv.Itoa(run)+"b.parquet"))
		}
		for _, p := range specs {
			writeRandomParquetLog(t, rng, p, 1+rng.IntN(3000))
		}
		opt := FitOptions{MinSamples: 1 + rng.IntN(10)}
		switch rng.IntN(4) {
		case 0:
			opt.Binning = Binning{Bins: 1 + rng.IntN(50)}
		case 1:
			opt.Binning = Binning{Width: []float64{1e-4, 0.5, 7}[rng.IntN(3)]}
		case 2:
			opt.TaskTypes = []string{"t0", "t1", "t2"}
		}
		step, stopAt := 1+rng.IntN(700), -1
		if rng.IntN(4) == 0 {
			stopAt = 1 + rng.IntN(3)
		}
		fit := func(f func(context.Context, []string, trace.ReadOptions, FitOptions, func(int), int) (*PET, LogStats, error)) ([]byte, LogStats, string, []int) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var calls []int
			pet, st, err := f(ctx, specs, read, opt, func(rows int) {
				if calls = append(calls, rows); len(calls) == stopAt {
					cancel()
				}
			}, step)
			if err != nil {
				return nil, st, err.Error(), calls
			}
			return encode(t, pet, FormatJSON), st, "", calls
		}
		want, wantSt, wantErr, wantCalls := fit(fitLogsByRecords)
		got, gotSt, gotErr, gotCalls := fit(fitLogs)
		if !bytes.Equal(got, want) || gotSt != wantSt || gotErr != wantErr || !slices.Equal(gotCalls, wantCalls) {
			t.Fatalf("run %d (%+v, step %d):\ngot  %d bytes, %+v, error %q, progress %v\nwant %d bytes, %+v, error %q, progress %v",
				run, opt, step, len(got), gotSt, gotErr, gotCalls, len(want), wantSt, wantErr, wantCalls)
		}
		switch {
		case wantErr == "":
			outcomes["PET"]++
		case wantErr == context.Canceled.Error():
			outcomes["cancelled"]++
		case bytes.Contains([]byte(wantErr), []byte("sample ")):
			outcomes["Add's error"]++
		case bytes.Contains([]byte(wantErr), []byte("row ")):
			outcomes["read error"]++
		default:
			outcomes["fit error"]++
		}
	}
	t.Log(outcomes)
	for _, k := range []string{"PET", "cancelled", "Add's error", "read error", "fit error"} {
		if outcomes[k] < runs/40 {
			t.Fatalf("outcomes %v: too few %q for the test to test it", outcomes, k)
		}
	}
}
