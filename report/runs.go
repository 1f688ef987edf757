package report

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/hcreplay/hcreplay/replay"
)

// RunsFile is the name of a finished sweep's (or shard's) rows in its folder.
const RunsFile = "runs.parquet"

// RunRow is one replay of a sweep: every option that defines it and every metric of SPEC §5.4.
// It is the row of runs.parquet, the contract between `sweep` (which writes rows) and `report`
// (which aggregates them). Options that do not apply to a run keep their zero value.
type RunRow struct {
	// Identity: the grid point and the trial.
	Key       string  `parquet:"key"`        // unique within a sweep: grid point and trial
	Point     string  `parquet:"point,dict"` // the grid point without the trial: what aggregation groups by
	Heuristic string  `parquet:"heuristic,dict"`
	Prune     string  `parquet:"prune,dict"` // none, defer, drop, both
	Name      string  `parquet:"name,dict"`  // heuristic with the variant suffix: MM-P, PAMF-D, ...
	Level     string  `parquet:"level,dict"` // trace set label: 19k, spiky20k, ...
	LevelRate float64 `parquet:"level_rate"` // tasks per time unit of the trace set, when known (NaN otherwise)
	Trial     int32   `parquet:"trial"`      // 1-based trial within the trace set
	Trace     string  `parquet:"trace"`      // where the trial came from

	// Replay options (SPEC §5.1) and pruning options (SPEC §5.3).
	QueueSize        int32   `parquet:"queue_size"`
	DropModel        string  `parquet:"drop_model,dict"`
	Strict           bool    `parquet:"strict"`
	ConditionElapsed bool    `parquet:"condition_elapsed"`
	Trim             int32   `parquet:"trim"`
	Seed             int64   `parquet:"seed"`
	Engine           string  `parquet:"engine,dict"`
	Toggle           string  `parquet:"toggle,dict"`
	Lambda           float64 `parquet:"lambda"`
	DropThreshold    float64 `parquet:"drop_threshold"`
	Rho              float64 `parquet:"rho"`
	Defer            string  `parquet:"defer,dict"`
	Fairness         float64 `parquet:"fairness"`
	// The readings the papers leave open (package prune): where deferring sits (after, after-rejudge, before),
	// when a running task may be dropped (evict, always, never), whether unmapped expiries
	// count in the sufferage.
	DeferAt          string `parquet:"defer_at,dict"`
	DropRunning      string `parquet:"drop_running,dict"`
	SufferageExpired bool   `parquet:"sufferage_expired"`

	// Metrics (replay.Summary).
	Tasks            int32   `parquet:"tasks"`
	Scored           int32   `parquet:"scored"`
	OnTime           int32   `parquet:"on_time"`
	Late             int32   `parquet:"late"`
	DroppedDeadline  int32   `parquet:"dropped_deadline"`
	DroppedPruned    int32   `parquet:"dropped_pruned"`
	ExpiredUnmapped  int32   `parquet:"expired_unmapped"`
	Robustness       float64 `parquet:"robustness"`
	FairnessVariance float64 `parquet:"fairness_variance"`
	FairnessStdDev   float64 `parquet:"fairness_stddev"`
	JainIndex        float64 `parquet:"jain_index"`
	Cost             float64 `parquet:"cost"`
	CostPerOnTime    float64 `parquet:"cost_per_on_time"`
	Energy           float64 `parquet:"energy_joules"`
	EnergyPerOnTime  float64 `parquet:"energy_per_on_time"`
	WastedBusyTime   float64 `parquet:"wasted_busy_time"`
	Utilisation      float64 `parquet:"utilisation"`
	BrierScore       float64 `parquet:"brier_score"`
	MappingEvents    int64   `parquet:"mapping_events"`
	Convolutions     int64   `parquet:"convolutions"`
	Multiplications  int64   `parquet:"impulse_multiplications"`
	SuccessEvals     int64   `parquet:"success_evaluations"`

	// Reliability is the reliability table's counts (replay.Summary.Reliability) as JSON, one
	// [tasks, on_time, predicted_sum] per bin of predicted chance, lowest first:
	// "[[120,3,1.2],[40,6,5.9],…]". Empty in runs files written before it was recorded.
	Reliability string `parquet:"reliability"`

	// Wall time; the only fields that differ between two runs of the same grid.
	MapperSeconds float64 `parquet:"mapper_seconds"`
	PrunerSeconds float64 `parquet:"pruner_seconds"`
}

// WithoutTimes is r with its wall times zeroed: the only fields that may differ between two
// runs of one grid point, so that such runs compare equal.
func (r RunRow) WithoutTimes() RunRow {
	r.MapperSeconds, r.PrunerSeconds = 0, 0
	return r
}

// SetMetrics copies a replay's summary and timing into the row.
func (r *RunRow) SetMetrics(s replay.Summary, t replay.Timing) {
	r.Tasks, r.Scored, r.OnTime, r.Late = int32(s.Tasks), int32(s.Scored), int32(s.OnTime), int32(s.Late)
	r.DroppedDeadline, r.DroppedPruned, r.ExpiredUnmapped = int32(s.DroppedDeadline), int32(s.DroppedPruned), int32(s.ExpiredUnmapped)
	r.Robustness, r.FairnessVariance, r.FairnessStdDev, r.JainIndex = float64(s.Robustness), float64(s.FairnessVariance), float64(s.FairnessStdDev), float64(s.JainIndex)
	r.Cost, r.CostPerOnTime, r.Energy, r.EnergyPerOnTime = float64(s.Cost), float64(s.CostPerOnTime), float64(s.Energy), float64(s.EnergyPerOnTime)
	r.WastedBusyTime, r.Utilisation, r.BrierScore = float64(s.WastedBusyTime), float64(s.Utilisation), float64(s.BrierScore)
	r.MappingEvents, r.Convolutions, r.Multiplications, r.SuccessEvals = s.MappingEvents, s.Convolutions, s.Multiplications, s.SuccessEvals
	r.MapperSeconds, r.PrunerSeconds = t.MapperSeconds, t.PrunerSeconds
	r.Reliability = reliabilityJSON(s.Reliability)
}

// runsSchema is runs.parquet's: RunRow's columns, its float metrics optional, so that a metric
// with nothing to measure (NaN in a RunRow) is NULL in the file.
// It is built at first use, as tasksSchema is.
var runsSchema = sync.OnceValue(newNullable[RunRow])

// WriteRuns writes rows as Parquet (zstd), a NaN as NULL, with meta (the first, if any) in the
// file's key-value metadata.
func WriteRuns(w io.Writer, rows []RunRow, meta ...FileMeta) error {
	var m FileMeta
	if len(meta) > 0 {
		m = meta[0]
	}
	pw := runsSchema().writer(w, m.options()...)
	if _, err := pw.Write(rows); err != nil {
		return fmt.Errorf("write runs: %w", err)
	}
	return pw.Close()
}

// ReadRuns reads a runs.parquet written by WriteRuns, a NULL as NaN. A file that is not
// Parquet, or lacks the columns of RunRow, is an error rather than rows of zeros.
func ReadRuns(path string) ([]RunRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	for _, col := range []string{"key", "point", "heuristic", "robustness", "trial"} {
		if _, ok := pf.Schema().Lookup(col); !ok {
			return nil, fmt.Errorf("read %s: no column %q: not a runs file of hcreplay sweep", path, col)
		}
	}
	rows, err := runsSchema().read(pf)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return rows, nil
}

// ReadRunsMeta reads what a runs file records about itself: its time unit and the version that
// wrote it (both empty for files of versions that did not record them).
func ReadRunsMeta(path string) (FileMeta, error) {
	f, err := os.Open(path)
	if err != nil {
		return FileMeta{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return FileMeta{}, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return FileMeta{}, fmt.Errorf("read %s: %w", path, err)
	}
	unit, _ := pf.Lookup("time_unit")
	version, _ := pf.Lookup("tool_version")
	return FileMeta{TimeUnit: unit, Version: version}, nil
}

// AggregateFolders reads the runs file of each folder and aggregates them all, with no baseline.
func AggregateFolders(dirs []string) (*Aggregate, error) {
	var rows []RunRow
	for _, d := range dirs {
		r, err := ReadRuns(filepath.Join(d, RunsFile))
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return AggregateRuns(rows, "")
}

// RunsFiles resolves each of args to a runs file, once: a folder stands for its runs.parquet.
// A folder without one is an error that says which command writes one, and names hcreplay
// replay's output when it looks like that instead.
func RunsFiles(args []string) ([]string, error) {
	var paths []string
	for _, a := range args {
		st, err := os.Stat(a)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("runs %s: no such file or folder", a)
		}
		if err != nil {
			return nil, fmt.Errorf("runs %s: %w", a, err)
		}
		p := a
		if st.IsDir() {
			p = filepath.Join(a, RunsFile)
			if _, err := os.Stat(p); err != nil {
				hint := "hcreplay sweep writes one"
				if IsReplayOutput(a) {
					hint = "it looks like the output of hcreplay replay, which writes summary.json per run; hcreplay sweep --trace NAME=SPEC runs the same replays and writes runs.parquet"
				}
				return nil, fmt.Errorf("runs %s: the folder has no runs.parquet (%s)", a, hint)
			}
		}
		if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// IsReplayOutput reports whether dir holds a summary.json of hcreplay replay --out, or holds
// one in a subfolder or the subfolder of a subfolder (one per mapper, then per trial).
func IsReplayOutput(dir string) bool {
	for _, pattern := range []string{"summary.json", "*/summary.json", "*/*/summary.json"} {
		if m, _ := filepath.Glob(filepath.Join(dir, pattern)); len(m) > 0 {
			return true
		}
	}
	return false
}
