package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
)

// The files of a sweep's folder.
const (
	RunsFile        = "runs.parquet"         // the finished sweep (or shard)
	PartialRunsFile = "runs.partial.parquet" // the rows so far of an unfinished one
	ManifestFile    = "manifest.json"
)

// ErrSweepExists says that the output folder holds another sweep's rows and --resume was not
// given: overwriting them silently could throw away hours of runs.
var ErrSweepExists = errors.New("the folder holds the rows of a sweep")

// Manifest is DIR/manifest.json: what was swept, with which tool, and how far it got.
type Manifest struct {
	Tool      string        `json:"tool"`
	Version   string        `json:"version"`
	TimeUnit  string        `json:"time_unit,omitempty"` // of the PET and the traces: level rates are per this unit
	GridFile  string        `json:"grid_file,omitempty"` // relative to the manifest's folder, so the folder can move with it
	Grid      *Grid         `json:"grid"`
	Seeds     ManifestSeeds `json:"seeds"`
	Shard     string        `json:"shard"` // i/n
	Jobs      int           `json:"jobs"`
	Runs      int           `json:"runs"`       // in the whole grid
	ShardRuns int           `json:"shard_runs"` // in this shard
	Resumed   int           `json:"resumed"`    // finished by earlier invocations
	Finished  int           `json:"finished"`   // finished by this one
	Complete  bool          `json:"complete"`   // runs.parquet holds every run of the shard
	Started   time.Time     `json:"started"`
	Ended     *time.Time    `json:"ended,omitempty"`
}

// ManifestSeeds are the seeds a sweep used, spelled out even where they are defaults.
type ManifestSeeds struct {
	Replay []uint64          `json:"replay"` // seeds of the actual durations (common random numbers)
	Levels map[string]uint64 `json:"levels"` // per level: the generator's seed, or the deadline rule's
}

// prepareDir creates the folder, refuses to overwrite another sweep unless resuming, and
// removes the temporary files a killed sweep may have left.
func (s *Sweep) prepareDir() error {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return err
	}
	if !s.Resume {
		for _, name := range []string{RunsFile, PartialRunsFile} {
			if _, err := os.Stat(filepath.Join(s.Dir, name)); err == nil {
				return fmt.Errorf("%s: %w (%s): add --resume to keep its finished runs, or choose another folder", s.Dir, ErrSweepExists, name)
			}
		}
	}
	for _, name := range []string{RunsFile, PartialRunsFile, ManifestFile} {
		stale, _ := filepath.Glob(filepath.Join(s.Dir, "."+name+".tmp-*"))
		for _, f := range stale {
			os.Remove(f)
		}
	}
	return nil
}

// resumed returns the rows of earlier invocations that are runs of mine, by Key. A row counts
// only if its trial came from a source of the same file name as now (or the same generator
// settings), so that a level pointed at other files under the same level name runs again, while
// a sweep started from another folder, whose paths differ, still resumes.
func (s *Sweep) resumed(mine []SweepRun) (map[string]RunRow, error) {
	done := map[string]RunRow{}
	if !s.Resume {
		return done, nil
	}
	source := make(map[string]string, len(mine))
	for _, r := range mine {
		source[r.Key] = s.Inputs.Levels[r.Level].Trials[r.Trial-1].Source
	}
	var read, foreign, changed int
	for _, name := range []string{RunsFile, PartialRunsFile} {
		path := filepath.Join(s.Dir, name)
		rows, err := ReadRuns(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("resume: %w", err)
		}
		read += len(rows)
		for _, row := range rows {
			src, ok := source[row.Key]
			switch {
			case !ok:
				foreign++
			case filepath.Base(src) != filepath.Base(row.Trace):
				changed++
			default:
				done[row.Key] = row
			}
		}
	}
	if read == 0 {
		s.logf("resume: no finished runs in %s; starting from the beginning", s.Dir)
		return done, nil
	}
	s.logf("resume: %d of %d runs already done", len(done), len(mine))
	if foreign > 0 {
		s.logf("resume: dropped %d rows of runs that are not in this grid or shard", foreign)
	}
	if changed > 0 {
		s.logf("resume: %d runs will run again: their trial now comes from another source", changed)
	}
	return done, nil
}

// writePartial saves the rows so far, atomically.
func (s *Sweep) writePartial(rows []RunRow) error {
	sortRows(rows)
	return writeRunsFile(filepath.Join(s.Dir, PartialRunsFile), rows, s.fileMeta())
}

// finish writes the complete runs.parquet, then removes the partial file: runs.parquet exists
// before the partial rows disappear, so a crash in between loses nothing.
func (s *Sweep) finish(rows []RunRow, st SweepStats, started time.Time) error {
	sortRows(rows)
	if err := writeRunsFile(filepath.Join(s.Dir, RunsFile), rows, s.fileMeta()); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(s.Dir, PartialRunsFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return s.writeManifest(st, started, time.Now())
}

func writeRunsFile(path string, rows []RunRow, meta FileMeta) error {
	return atomicfile.Write(path, func(w io.Writer) error { return WriteRuns(w, rows, meta) })
}

// fileMeta is what the sweep's files record about themselves.
func (s *Sweep) fileMeta() FileMeta {
	return FileMeta{TimeUnit: s.Inputs.TimeUnit, Version: s.Version}
}

// relativeTo is path relative to dir, so that a folder that records it can be moved together
// with what it points at; path as it is when no relative path leads there (another drive).
func relativeTo(dir, path string) string {
	if path == "" {
		return ""
	}
	ad, err1 := filepath.Abs(dir)
	ap, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return path
	}
	rel, err := filepath.Rel(ad, ap)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// writeManifest writes manifest.json; a zero ended means the sweep is under way.
func (s *Sweep) writeManifest(st SweepStats, started, ended time.Time) error {
	m := Manifest{
		Tool: Tool, Version: s.Version, TimeUnit: s.Inputs.TimeUnit, GridFile: relativeTo(s.Dir, s.GridFile), Grid: s.Grid, Seeds: s.seeds(),
		Shard: s.Shard.String(), Jobs: s.jobs(st.Shard - st.Resumed),
		Runs: st.Runs, ShardRuns: st.Shard, Resumed: st.Resumed, Finished: st.Finished,
		Complete: !ended.IsZero() && st.Resumed+st.Finished == st.Shard,
		Started:  started.UTC().Truncate(time.Millisecond),
	}
	if !ended.IsZero() {
		e := ended.UTC().Truncate(time.Millisecond)
		m.Ended = &e
	}
	return atomicfile.Write(filepath.Join(s.Dir, ManifestFile), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	})
}

func (s *Sweep) seeds() ManifestSeeds {
	seeds := ManifestSeeds{Replay: s.Grid.Seed, Levels: map[string]uint64{}}
	if len(seeds.Replay) == 0 {
		seeds.Replay = []uint64{1}
	}
	for _, lv := range s.Grid.Levels {
		seeds.Levels[lv.Name] = lv.Seed
		if lv.Generate != nil {
			seeds.Levels[lv.Name] = lv.Generate.Seed
		}
	}
	return seeds
}

// ReadManifest reads DIR/manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
	}
	return &m, nil
}
