package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/report"
)

// The files of a sweep's folder, beside report.RunsFile (the finished sweep or shard).
const (
	PartialRunsFile = "runs.partial.parquet" // the rows so far of an unfinished one
	ManifestFile    = "manifest.json"
)

// ErrSweepExists says that the output folder holds another sweep's rows and --resume was not
// given: overwriting them silently could throw away hours of runs.
var ErrSweepExists = errors.New("the folder holds the rows of a sweep")

// ErrBadRunsFile says that a runs file in the output folder cannot be read (a checkpoint cut
// short by a full disk): bad input, which the user settles by removing it or another --out.
var ErrBadRunsFile = errors.New("remove it to start the sweep over, or give another --out")

// Manifest is DIR/manifest.json: what was swept, with which tool, and how far it got.
type Manifest struct {
	Tool      string        `json:"tool"`
	Version   string        `json:"version"`
	TimeUnit  string        `json:"time_unit,omitempty"`     // of the PET and the traces: level rates are per this unit
	GridFile  string        `json:"grid_file,omitempty"`     // relative to the manifest's folder, so the folder can move with it
	Inputs    string        `json:"inputs_digest,omitempty"` // the PET's and catalog's (Sweep.InputsDigest)
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

// prepareDir creates the folder and refuses to write into one that holds another sweep's rows:
// without Resume, any sweep's (overwriting them could throw away hours of runs); with Resume,
// those of another shard (its manifest says which) or rows that are not runs of mine (another
// grid's), which resuming would throw away. Only a folder that resuming would keep whole is
// offered --resume. It removes the temporary files a killed sweep may have left.
func (s *Sweep) prepareDir(mine []SweepRun) error {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return err
	}
	var held []string
	for _, name := range []string{report.RunsFile, PartialRunsFile} {
		if _, err := os.Stat(filepath.Join(s.Dir, name)); err == nil {
			held = append(held, name)
		}
	}
	if len(held) > 0 {
		m, err := ReadManifest(s.Dir)
		switch {
		case err == nil && m.Shard != "" && m.Shard != s.Shard.String():
			return fmt.Errorf("%s: %w (%s) of shard %s, and this is shard %s: give each shard its own --out (report merges the folders)",
				s.Dir, ErrSweepExists, strings.Join(held, ", "), m.Shard, s.Shard)
		case err == nil && m.Inputs != "" && s.InputsDigest != "" && m.Inputs != s.InputsDigest:
			return fmt.Errorf("%s: %w (%s) made with another PET or catalog (their digest in %s differs): give this sweep its own --out; nothing was changed",
				s.Dir, ErrSweepExists, strings.Join(held, ", "), ManifestFile)
		case err == nil && m.Grid != nil:
			if what := changedTrials(m.Grid, s.Grid); what != "" {
				return fmt.Errorf("%s: %w (%s) whose trials have changed since: %s; give this sweep its own --out; nothing was changed",
					s.Dir, ErrSweepExists, strings.Join(held, ", "), what)
			}
		}
		foreign, err := s.foreignRows(mine)
		if err != nil {
			return err
		}
		if foreign > 0 {
			return fmt.Errorf("%s: %w (%s) with %d runs that are not runs of this grid and shard (another sweep's, or a grid since changed), which this sweep would throw away: give it its own --out; nothing was changed",
				s.Dir, ErrSweepExists, strings.Join(held, ", "), foreign)
		}
		if !s.Resume {
			return fmt.Errorf("%s: %w (%s): add --resume to keep its finished runs, or choose another folder", s.Dir, ErrSweepExists, strings.Join(held, ", "))
		}
	}
	for _, name := range []string{report.RunsFile, PartialRunsFile, ManifestFile} {
		stale, _ := filepath.Glob(filepath.Join(s.Dir, "."+name+".tmp-*"))
		for _, f := range stale {
			os.Remove(f)
		}
	}
	return nil
}

// changedTrials says what makes the grid's trials other than they were in the grid now
// (old, as the manifest recorded it): the time unit of its trace files, or a level's deadline
// rule, seed, rate or generator settings. Run keys name none of them, so runs of the old trials
// would pass for runs of the new. It returns "" when nothing changed.
func changedTrials(old, now *Grid) string {
	if old.TimeUnit != now.TimeUnit {
		return fmt.Sprintf("time_unit %q, now %q", old.TimeUnit, now.TimeUnit)
	}
	settings := func(lv Level) string {
		s := fmt.Sprintf("deadline %q, seed %d, rate %g", lv.Deadline, lv.Seed, lv.Rate)
		if lv.Generate != nil {
			s += fmt.Sprintf(", generate %+v", *lv.Generate)
		}
		return s
	}
	was := map[string]string{}
	for _, lv := range old.Levels {
		was[lv.Name] = settings(lv)
	}
	for _, lv := range now.Levels {
		if w, ok := was[lv.Name]; ok && w != settings(lv) {
			return fmt.Sprintf("level %s had %s, now %s", lv.Name, w, settings(lv))
		}
	}
	return ""
}

// foreignRows counts the rows of the folder's runs files whose key is not a run of mine.
func (s *Sweep) foreignRows(mine []SweepRun) (int, error) {
	keys := make(map[string]bool, len(mine))
	for _, r := range mine {
		keys[r.Key] = true
	}
	foreign := 0
	for _, name := range []string{report.RunsFile, PartialRunsFile} {
		rows, err := report.ReadRuns(filepath.Join(s.Dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("%w: %w", err, ErrBadRunsFile)
		}
		for _, row := range rows {
			if !keys[row.Key] {
				foreign++
			}
		}
	}
	return foreign, nil
}

// resumed returns the rows of earlier invocations that are runs of mine, by Key (prepareDir has
// refused a folder with rows of others). A row counts only if its trial came from a source of
// the same file name as now (or the same generator settings), so that a level pointed at other
// files under the same level name runs again, while a sweep started from another folder, whose
// paths differ, still resumes.
func (s *Sweep) resumed(mine []SweepRun) (map[string]report.RunRow, error) {
	done := map[string]report.RunRow{}
	if !s.Resume {
		return done, nil
	}
	source := make(map[string]string, len(mine))
	for _, r := range mine {
		source[r.Key] = s.Inputs.Levels[r.Level].Trials[r.Trial-1].Source
	}
	var read, changed int
	for _, name := range []string{report.RunsFile, PartialRunsFile} {
		path := filepath.Join(s.Dir, name)
		rows, err := report.ReadRuns(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, InputError{fmt.Errorf("resume: %w (move it away to start the sweep afresh)", err)}
		}
		read += len(rows)
		for _, row := range rows {
			if src, ok := source[row.Key]; ok && filepath.Base(src) != filepath.Base(row.Trace) {
				changed++
			} else if ok {
				done[row.Key] = row
			}
		}
	}
	if read == 0 {
		s.logf("resume: no finished runs in %s; starting from the beginning", s.Dir)
		return done, nil
	}
	s.logf("resume: %d of %d runs already done", len(done), len(mine))
	if changed > 0 {
		s.logf("resume: %d runs will run again: their trial now comes from another source", changed)
	}
	return done, nil
}

// writePartial saves the rows so far, atomically.
func (s *Sweep) writePartial(rows []report.RunRow) error {
	sortRows(rows)
	return writeRunsFile(filepath.Join(s.Dir, PartialRunsFile), rows, s.fileMeta())
}

// finish writes the complete runs.parquet, then removes the partial file: runs.parquet exists
// before the partial rows disappear, so a crash in between loses nothing.
func (s *Sweep) finish(rows []report.RunRow, st SweepStats, started time.Time) error {
	sortRows(rows)
	if err := writeRunsFile(filepath.Join(s.Dir, report.RunsFile), rows, s.fileMeta()); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(s.Dir, PartialRunsFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return s.writeManifest(st, started, time.Now())
}

func writeRunsFile(path string, rows []report.RunRow, meta report.FileMeta) error {
	return atomicfile.Write(path, func(w io.Writer) error { return report.WriteRuns(w, rows, meta) })
}

// fileMeta is what the sweep's files record about themselves.
func (s *Sweep) fileMeta() report.FileMeta {
	return report.FileMeta{TimeUnit: s.Inputs.TimeUnit, Version: s.Version}
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
		Tool: report.Tool, Version: s.Version, TimeUnit: s.Inputs.TimeUnit, GridFile: relativeTo(s.Dir, s.GridFile), Inputs: s.InputsDigest,
		Grid: s.Grid, Seeds: s.seeds(),
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

// MissingRuns says what runs files lack of the sweeps they come from, by the manifests beside
// them: the shards of a sweep not among the files ("shard 3/3 missing"), and how many of the
// grid's runs they hold. held gives, per file, how many distinct runs it adds to the report.
// Files without a manifest say nothing of their sweep and are not checked. Shards belong to one
// sweep when their manifests record the same grid and run count.
func MissingRuns(files []string, held map[string]int) []string {
	type sweep struct {
		runs, held, count int
		shards            map[int]bool
		where             string
	}
	var order []string
	sweeps := map[string]*sweep{}
	for _, f := range files {
		m, err := ReadManifest(filepath.Dir(f))
		if err != nil || m.Grid == nil {
			continue
		}
		grid, err := json.Marshal(m.Grid)
		if err != nil {
			continue
		}
		id := fmt.Sprintf("%d %s", m.Runs, grid)
		sw := sweeps[id]
		if sw == nil {
			sw = &sweep{runs: m.Runs, shards: map[int]bool{}, where: filepath.Base(m.GridFile)}
			if m.GridFile == "" {
				sw.where = filepath.Dir(f)
			}
			sweeps[id] = sw
			order = append(order, id)
		}
		sw.held += held[f]
		if sh, err := ParseShard(m.Shard); err == nil {
			sw.count, sw.shards[sh.Index] = sh.Count, true
		}
	}
	var out []string
	for _, id := range order {
		sw := sweeps[id]
		if sw.held >= sw.runs {
			continue
		}
		var missing []string
		for i := 1; i <= sw.count; i++ {
			if !sw.shards[i] {
				missing = append(missing, fmt.Sprintf("%d/%d", i, sw.count))
			}
		}
		what := "runs missing"
		switch len(missing) {
		case 0: // every shard is there, but not all of its runs (a partial file)
		case 1:
			what = "shard " + missing[0] + " missing"
		default:
			what = "shards " + strings.Join(missing, ", ") + " missing"
		}
		out = append(out, fmt.Sprintf("sweep of %s: %s: the folders hold %d of the sweep's %d runs", sw.where, what, sw.held, sw.runs))
	}
	return out
}

// WriteLevels writes a grid file that holds only levels (as JSON, which is YAML, with Level's
// json tags as the grid's keys): what a command that builds levels hands to a sweep whose
// other keys it sets as flags.
func WriteLevels(path string, levels []Level) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string][]Level{"levels": levels})
	})
}
