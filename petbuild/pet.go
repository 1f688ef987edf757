package petbuild

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/trace"
)

// DefaultTimeUnit is the time unit of a PET whose file or options do not name one.
const DefaultTimeUnit = "ms"

// Limits that keep a hostile or mistaken file from allocating without bound. A PET with a
// million cells or a cell with a million impulses is far outside anything a scheduler can use.
const (
	maxCells        = 1 << 20
	maxCellImpulses = 1 << 20
)

// Provenance records where a cell came from, so that `pet show` can tell a well-observed cell
// from a borrowed or heavily truncated one.
type Provenance struct {
	// Samples is the number of observations the cell was fitted from (the donor's count when
	// the cell was filled from another machine type); 0 when unknown, e.g. for .etc input.
	Samples int
	// Binning describes how the histogram was built and compacted, for humans.
	Binning string
	// Deficit is 1 − the cell's mass before renormalisation (HCW19 cells: 0.0012–0.0036). A
	// negative deficit means the input summed to more than 1.
	Deficit float64
	// CutMass is the probability that cropping moved from the tails into the end impulses.
	CutMass float64
	// FilledFrom names the machine type whose samples stand in for this cell; empty when the
	// cell was fitted from its own samples.
	FilledFrom string
	// SampleMean and SampleSD are the mean and standard deviation of the samples the cell was
	// fitted from (the donor's when filled), so that `pet show` can set the PMF's beside them;
	// 0 when unknown (.etc input, synthetic cells).
	SampleMean, SampleSD float64
}

// Cell is one entry of the matrix: the execution-time PMF and its provenance.
type Cell struct {
	PMF        pmf.PMF
	Provenance Provenance
}

// PET is a Probabilistic Execution Time matrix: one execution-time PMF per (task type, machine
// type). All cells share one step, and every cell's origin is a whole number of steps (see the
// package doc for why). A PET is immutable after New; its accessors return copies or values, so
// it can be shared between goroutines.
type PET struct {
	timeUnit     string
	step         float64
	taskTypes    []string
	machineTypes []string
	taskIndex    map[string]int
	machineIndex map[string]int
	cells        []Cell // row-major: cells[task*len(machineTypes)+machine]
	tables       []cellTable
}

// cellTable is a cell's cumulative table, built on first use (CellTable).
type cellTable struct {
	once  sync.Once
	table pmf.CDFTable
}

// New builds a PET from its type names and cells, given row-major by task type
// (cells[t*len(machineTypes)+m]). It checks that names are unique and non-empty, that every cell
// is a valid PMF, that all cells share one step and that every origin is a whole number of
// steps. An empty time unit means DefaultTimeUnit; another must be one trace.ParseUnit knows, so
// that every reader refuses a PET in "fortnights" alike (they all end here), not only the replay
// that needs its seconds. New copies the slices it is given.
func New(taskTypes, machineTypes []string, timeUnit string, cells []Cell) (*PET, error) {
	if timeUnit == "" {
		timeUnit = DefaultTimeUnit
	}
	if _, err := trace.ParseUnit(timeUnit); err != nil {
		return nil, fmt.Errorf("pet: time_unit: %w", err)
	}
	ti, err := indexNames("task", taskTypes)
	if err != nil {
		return nil, fmt.Errorf("pet: %w", err)
	}
	mi, err := indexNames("machine", machineTypes)
	if err != nil {
		return nil, fmt.Errorf("pet: %w", err)
	}
	if len(taskTypes)*len(machineTypes) > maxCells {
		return nil, fmt.Errorf("pet: %d×%d cells exceed the limit of %d", len(taskTypes), len(machineTypes), maxCells)
	}
	if want := len(taskTypes) * len(machineTypes); len(cells) != want {
		return nil, fmt.Errorf("pet: %d cells for %d task types × %d machine types, want %d", len(cells), len(taskTypes), len(machineTypes), want)
	}
	step := cells[0].PMF.Step()
	for i, c := range cells {
		name := cellName(taskTypes[i/len(machineTypes)], machineTypes[i%len(machineTypes)])
		if err := checkCell(c, step); err != nil {
			return nil, fmt.Errorf("pet: cell %s: %w", name, err)
		}
	}
	return &PET{
		timeUnit:     timeUnit,
		step:         step,
		taskTypes:    append([]string(nil), taskTypes...),
		machineTypes: append([]string(nil), machineTypes...),
		taskIndex:    ti,
		machineIndex: mi,
		cells:        append([]Cell(nil), cells...),
		tables:       make([]cellTable, len(cells)),
	}, nil
}

func indexNames(kind string, names []string) (map[string]int, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("no %s types", kind)
	}
	idx := make(map[string]int, len(names))
	for i, n := range names {
		if n == "" {
			return nil, fmt.Errorf("%s type %d has an empty name", kind, i)
		}
		if _, dup := idx[n]; dup {
			return nil, fmt.Errorf("%s type %q appears twice", kind, n)
		}
		idx[n] = i
	}
	return idx, nil
}

// checkCell verifies the pmf invariants, the shared step, the grid rule and the grid limits.
func checkCell(c Cell, step float64) error {
	if err := c.PMF.Check(); err != nil {
		return err
	}
	if s := c.PMF.Step(); math.Abs(s-step) > 1e-9*step {
		return fmt.Errorf("step %g differs from the matrix step %g", s, step)
	}
	if c.PMF.Origin() < 0 {
		return fmt.Errorf("origin %g is negative; execution times cannot be", c.PMF.Origin())
	}
	if !onLattice(c.PMF.Origin(), step) {
		return fmt.Errorf("origin %g is not a whole number of steps of %g", c.PMF.Origin(), step)
	}
	if err := checkGrid(c.PMF.Origin(), c.PMF.Step(), c.PMF.Len()); err != nil {
		return err
	}
	if p := c.Provenance; p.Samples < 0 || !finite(p.Deficit) || !finite(p.CutMass) {
		return errors.New("provenance has a negative sample count or a non-finite mass")
	}
	return nil
}

// latticeTol is how far, in steps, a time may be from a grid point and still count as on it.
// Times come from decimal text, so k·step is rarely exact; 1e-6 steps is far below any
// meaningful difference and far above rounding error.
const latticeTol = 1e-6

func onLattice(t, step float64) bool {
	x := t / step
	return math.Abs(x-math.Round(x)) <= latticeTol
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// TimeUnit is the unit of every time in the matrix, e.g. "ms".
func (p *PET) TimeUnit() string { return p.timeUnit }

// Step is the grid spacing shared by all cells.
func (p *PET) Step() float64 { return p.step }

// NumTaskTypes is the number of rows.
func (p *PET) NumTaskTypes() int { return len(p.taskTypes) }

// NumMachineTypes is the number of columns.
func (p *PET) NumMachineTypes() int { return len(p.machineTypes) }

// TaskTypes returns a copy of the task type names in matrix order.
func (p *PET) TaskTypes() []string { return append([]string(nil), p.taskTypes...) }

// MachineTypes returns a copy of the machine type names in matrix order.
func (p *PET) MachineTypes() []string { return append([]string(nil), p.machineTypes...) }

// TaskType is the name of task type i.
func (p *PET) TaskType(i int) string { return p.taskTypes[i] }

// MachineType is the name of machine type j.
func (p *PET) MachineType(j int) string { return p.machineTypes[j] }

// TaskIndex returns the row of the named task type.
func (p *PET) TaskIndex(name string) (int, bool) {
	i, ok := p.taskIndex[name]
	return i, ok
}

// MachineIndex returns the column of the named machine type.
func (p *PET) MachineIndex(name string) (int, bool) {
	j, ok := p.machineIndex[name]
	return j, ok
}

// MachineIndices maps machine type names (a trace's observed-duration columns, exec_NAME) to
// the PET's indices; a name the PET does not have is an error.
func (p *PET) MachineIndices(names []string) ([]int, error) {
	out := make([]int, len(names))
	for k, name := range names {
		j, ok := p.machineIndex[name]
		if !ok {
			return nil, fmt.Errorf("column exec_%s names a machine type the PET does not have", name)
		}
		out[k] = j
	}
	return out, nil
}

// Cell is the execution-time PMF of task type task on machine type machine. It panics on an
// index out of range, like a slice.
func (p *PET) Cell(task, machine int) pmf.PMF { return p.at(task, machine).PMF }

// CellTable is Cell(task, machine)'s cumulative table (pmf.PMF.CDFTable), built the first time
// it is asked for and kept, so that the replays of one matrix (every heuristic, every trial)
// share it instead of each building its own. Safe for concurrent use; the table is read-only.
func (p *PET) CellTable(task, machine int) pmf.CDFTable {
	i := p.index(task, machine)
	t := &p.tables[i]
	t.once.Do(func() { t.table = p.cells[i].PMF.CDFTable() })
	return t.table
}

// Provenance is where cell (task, machine) came from.
func (p *PET) Provenance(task, machine int) Provenance { return p.at(task, machine).Provenance }

// at is cell (task, machine) in place: callers copy out the part they need (Cell is asked for
// in every chain link of a replay, and a whole Cell is a hundred bytes).
func (p *PET) at(task, machine int) *Cell { return &p.cells[p.index(task, machine)] }

// index is where cell (task, machine) is in cells and tables; it panics out of range.
func (p *PET) index(task, machine int) int {
	if task < 0 || task >= len(p.taskTypes) || machine < 0 || machine >= len(p.machineTypes) {
		panic(fmt.Sprintf("petbuild: cell (%d, %d) out of range %d×%d", task, machine, len(p.taskTypes), len(p.machineTypes)))
	}
	return task*len(p.machineTypes) + machine
}

// Cells returns a copy of all cells, row-major by task type; New(p.TaskTypes(),
// p.MachineTypes(), p.TimeUnit(), p.Cells()) rebuilds the matrix.
func (p *PET) Cells() []Cell { return append([]Cell(nil), p.cells...) }

// TypeMean is the mean over machine types of the task type's cell means: avg_i of the deadline
// rule δ = arrival + avg_i + β·avg_all (reference/thesis-2018.md Eq 3.7 [IMPL]). It is the
// unweighted mean, since the thesis gives no machine weights.
func (p *PET) TypeMean(task int) float64 {
	s := 0.0
	for m := range p.machineTypes {
		s += p.Cell(task, m).Mean()
	}
	return s / float64(len(p.machineTypes))
}

// GlobalMean is the mean over task types of TypeMean: avg_all of Eq 3.7.
func (p *PET) GlobalMean() float64 {
	s := 0.0
	for t := range p.taskTypes {
		s += p.TypeMean(t)
	}
	return s / float64(len(p.taskTypes))
}

// Summary describes one cell for `pet show`.
type Summary struct {
	TaskType, MachineType string
	Mean, StdDev, P95     float64
	Min, Max              float64
	Impulses              int
	Provenance
}

// Summary summarises cell (task, machine). P95 is the PMF's 0.95 quantile, a grid time.
func (p *PET) Summary(task, machine int) Summary {
	c := p.at(task, machine)
	return Summary{
		TaskType:    p.taskTypes[task],
		MachineType: p.machineTypes[machine],
		Mean:        c.PMF.Mean(),
		StdDev:      c.PMF.StdDev(),
		P95:         c.PMF.Quantile(0.95),
		Min:         c.PMF.Min(),
		Max:         c.PMF.Max(),
		Impulses:    c.PMF.Len(),
		Provenance:  c.Provenance,
	}
}

// Summaries summarises every cell, row-major by task type.
func (p *PET) Summaries() []Summary {
	out := make([]Summary, 0, len(p.cells))
	for t := range p.taskTypes {
		for m := range p.machineTypes {
			out = append(out, p.Summary(t, m))
		}
	}
	return out
}

// UnitSeconds is the length of one of the PET's time units in seconds, for cost and energy.
// New refuses a unit trace.ParseUnit does not know, so the error is for a PET built otherwise.
func (p *PET) UnitSeconds() (float64, error) {
	u, err := trace.ParseUnit(p.TimeUnit())
	if err != nil {
		return 0, fmt.Errorf("PET time unit: %w", err)
	}
	return u.Factor(trace.Second), nil
}
