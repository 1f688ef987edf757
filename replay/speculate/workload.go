package speculate

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/trace"
)

// Quantiler draws a copy's duration from a uniform number u in [0, 1) by inversion; every
// strategy gets the same u for the same (seed, job, task, copy) (common random numbers).
type Quantiler interface {
	Quantile(u float64) float64
}

// Class is the execution-time law of one kind of task.
type Class struct {
	Name string
	// Model is what the scheduler believes about a copy on the cluster-average machine: E[x],
	// σ*, P2 and Mantri's threshold come from it.
	Model Dist
	// OnType gives the actual duration of a copy by the machine type it runs on; one entry
	// means the same law on every machine type.
	OnType []Quantiler
}

// Job is one job of a workload: Tasks independent tasks that arrive together (002 §III).
type Job struct {
	ID      string
	Arrival float64
	Tasks   int
	// Class is the class of every task, unless TaskClass (one entry per task) is set.
	Class     int
	TaskClass []int
	// Model, when set, is the scheduler's belief about the job's tasks (a job whose tasks
	// differ in class); nil means the class's.
	Model Dist
	// Observed, when set, holds per task the durations a trace observed, one per machine type
	// (NaN where unknown): the first copy of a task on that machine type takes that long.
	Observed [][]float64
}

// Workload is a job trace ready for Run: jobs sorted by arrival, and their task classes.
type Workload struct {
	Jobs    []Job
	Classes []Class
	// MachineTypes names the machine types that Class.OnType and Job.Observed index.
	MachineTypes []string
}

// Check reports the first thing that makes w unusable.
func (w *Workload) Check() error {
	if len(w.Jobs) == 0 {
		return errors.New("workload: no jobs")
	}
	for k, c := range w.Classes {
		if c.Model == nil || len(c.OnType) == 0 {
			return fmt.Errorf("workload: class %d (%s) has no distribution", k, c.Name)
		}
		if !(c.Model.Mean() > 0) || math.IsInf(c.Model.Mean(), 1) {
			return fmt.Errorf("workload: class %s has mean %g: want a finite positive mean", c.Name, c.Model.Mean())
		}
	}
	prev := math.Inf(-1)
	for i, j := range w.Jobs {
		switch {
		case j.Tasks < 1 || j.Tasks > math.MaxInt32: // the simulator's events index tasks by int32
			return fmt.Errorf("workload: job %s has %d tasks: want 1..%d", j.ID, j.Tasks, math.MaxInt32)
		case math.IsNaN(j.Arrival) || math.IsInf(j.Arrival, 0) || j.Arrival < prev:
			return fmt.Errorf("workload: job %d (%s) arrives at %g, before the job before it or not at all", i, j.ID, j.Arrival)
		case j.TaskClass != nil && len(j.TaskClass) != j.Tasks:
			return fmt.Errorf("workload: job %s has %d task classes for %d tasks", j.ID, len(j.TaskClass), j.Tasks)
		case j.Observed != nil && len(j.Observed) != j.Tasks:
			return fmt.Errorf("workload: job %s has %d observed rows for %d tasks", j.ID, len(j.Observed), j.Tasks)
		}
		for _, c := range append([]int{j.Class}, j.TaskClass...) {
			if c < 0 || c >= len(w.Classes) {
				return fmt.Errorf("workload: job %s names class %d of %d", j.ID, c, len(w.Classes))
			}
		}
		prev = j.Arrival
	}
	return nil
}

// model is the scheduler's belief about job i's tasks.
func (w *Workload) model(i int) Dist {
	if m := w.Jobs[i].Model; m != nil {
		return m
	}
	return w.Classes[w.Jobs[i].Class].Model
}

func (w *Workload) taskClass(i, t int) int {
	if tc := w.Jobs[i].TaskClass; tc != nil {
		return tc[t]
	}
	return w.Jobs[i].Class
}

// Limits on the synthetic workload (and on times anywhere). Times are in the workload's time
// unit, which the paper leaves abstract (its mean task times are 1 to 4).
const (
	// MinTime and MaxTime bound the horizon, the mean task times and the slot length: the
	// longest Pareto copy is below 2⁵³·mean ≈ 9·10¹⁵·mean, so every time stays below 10²⁸ and
	// sums of millions of them, γ × machine time, cost and energy stay finite, while at 10⁻¹²
	// the Pareto scale mean·(α−1)/α stays far from float64's subnormal range.
	MinTime, MaxTime = 1e-12, 1e12
	// MaxTimeRange caps the horizon and the longest mean task time at this multiple of the
	// shortest mean task time: at the end of the window a float64 then still resolves a task
	// time to 2⁵²/10⁹ ≈ 4.5 million steps (beyond it copies would round to zero length).
	MaxTimeRange = 1e9
	// MaxAlpha caps the Pareto tail order: at α = 1000 the longest possible copy
	// (2^(53/α)·scale) is within 4% of the shortest, so the tasks are already deterministic
	// and a larger α only risks overflow in the scale mean·(α−1)/α.
	MaxAlpha = 1000
	// MaxTasksPerJob caps a synthetic job's tasks: a running job keeps 48 bytes of state per
	// task (48 MB at most), and the paper's jobs have 1 to 100.
	MaxTasksPerJob = 1_000_000
	// MaxSyntheticJobs caps the expected jobs (rate × horizon): a job takes about 1 KB over the
	// workload, the simulator and the per-job outcomes, so a run stays near 1 GB; the paper's
	// heaviest workload has 60,000.
	MaxSyntheticJobs = 1_000_000
	// MaxSyntheticTasks caps the expected tasks (jobs × mean tasks per job): 2·10⁷ tasks on
	// 100,000 machines took 45 s with none and 150 s with SCA (measured), so every strategy
	// finishes within minutes, and it is seven times the paper's heaviest workload.
	MaxSyntheticTasks = 20_000_000
)

// SyntheticOptions is the synthetic job workload of 002 §IV-C: Poisson job arrivals at Rate
// over [0, Horizon), tasks per job uniform on MinTasks..MaxTasks, and per job a mean task time
// uniform on [MinMean, MaxMean] with Pareto task times of tail order Alpha.
type SyntheticOptions struct {
	Rate               float64
	Horizon            float64
	MinTasks, MaxTasks int
	MinMean, MaxMean   float64
	Alpha              float64
	Seed               uint64
}

// PaperWorkload is the setup of 002 §IV-C at arrival rate rate: 1..100 tasks, E[x] ~ U(1, 4),
// Pareto α = 2, 1500 time units.
func PaperWorkload(rate float64, seed uint64) SyntheticOptions {
	return SyntheticOptions{Rate: rate, Horizon: 1500, MinTasks: 1, MaxTasks: 100, MinMean: 1, MaxMean: 4, Alpha: 2, Seed: seed}
}

// Check reports the first option out of range (the limits above), as a *RangeError.
func (opt SyntheticOptions) Check() error {
	inTime := func(v float64) bool { return v >= MinTime && v <= MaxTime } // false for NaN
	switch {
	case !(opt.Rate > 0) || math.IsInf(opt.Rate, 0):
		return rangeErrorf("synthetic workload: arrival rate %g: want > 0", opt.Rate)
	case !inTime(opt.Horizon):
		return rangeErrorf("synthetic workload: horizon %g: want %g..%g", opt.Horizon, MinTime, MaxTime)
	case opt.MinTasks < 1 || opt.MaxTasks < opt.MinTasks || opt.MaxTasks > MaxTasksPerJob:
		return rangeErrorf("synthetic workload: tasks per job %d..%d: want 1 ≤ min ≤ max ≤ %d", opt.MinTasks, opt.MaxTasks, MaxTasksPerJob)
	case !inTime(opt.MinMean) || !inTime(opt.MaxMean) || !(opt.MinMean <= opt.MaxMean):
		return rangeErrorf("synthetic workload: mean task time %g..%g: want %g ≤ min ≤ max ≤ %g", opt.MinMean, opt.MaxMean, MinTime, MaxTime)
	case math.Max(opt.Horizon, opt.MaxMean) > MaxTimeRange*opt.MinMean:
		return rangeErrorf("synthetic workload: horizon %g and mean task times %g..%g: want the horizon and the longest mean at most %g times the shortest mean",
			opt.Horizon, opt.MinMean, opt.MaxMean, float64(MaxTimeRange))
	case !(opt.Alpha > 1 && opt.Alpha <= MaxAlpha):
		return rangeErrorf("synthetic workload: Pareto α = %g: want 1 < α ≤ %d (a finite mean)", opt.Alpha, MaxAlpha)
	}
	if n := opt.Rate * opt.Horizon; n > MaxSyntheticJobs {
		return rangeErrorf("synthetic workload: %.0f expected jobs (rate × horizon): at most %d", n, MaxSyntheticJobs)
	}
	if n := opt.Rate * opt.Horizon * float64(opt.MinTasks+opt.MaxTasks) / 2; n > MaxSyntheticTasks {
		return rangeErrorf("synthetic workload: %.0f expected tasks (rate × horizon × mean tasks per job): at most %d", n, MaxSyntheticTasks)
	}
	return nil
}

// Synthetic generates a workload; every job gets its own Pareto class.
func Synthetic(opt SyntheticOptions) (*Workload, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5ca1ab1e))
	w := &Workload{MachineTypes: []string{"node"}}
	for t := rng.ExpFloat64() / opt.Rate; t < opt.Horizon; t += rng.ExpFloat64() / opt.Rate {
		m := opt.MinTasks + rng.IntN(opt.MaxTasks-opt.MinTasks+1)
		mean := opt.MinMean + (opt.MaxMean-opt.MinMean)*rng.Float64()
		p := ParetoWithMean(mean, opt.Alpha)
		k := len(w.Jobs)
		w.Classes = append(w.Classes, Class{Name: fmt.Sprintf("job%d", k), Model: p, OnType: []Quantiler{p}})
		w.Jobs = append(w.Jobs, Job{ID: fmt.Sprint(k), Arrival: t, Tasks: m, Class: k})
	}
	if len(w.Jobs) == 0 {
		return nil, errors.New("synthetic workload: no job arrived within the horizon")
	}
	return w, nil
}

// SingleJob is one job of tasks Pareto tasks of the given mean, arriving at 0 (002 Fig 5).
func SingleJob(tasks int, mean, alpha float64) *Workload {
	p := ParetoWithMean(mean, alpha)
	return &Workload{MachineTypes: []string{"node"},
		Classes: []Class{{Name: "job", Model: p, OnType: []Quantiler{p}}},
		Jobs:    []Job{{ID: "0", Tasks: tasks}}}
}

// DistMode says where task-time distributions come from for a trace.
type DistMode string

const (
	// FromPET uses the PET cells as they are (discrete; the tail ends at the last bin).
	FromPET DistMode = "pet"
	// ParetoTail fits a Pareto distribution to each cell's tail (FitPareto).
	ParetoTail DistMode = "pareto"
)

// TraceOptions says how to turn an arrival trace into a job workload.
type TraceOptions struct {
	Mode DistMode
	// TypeWeights is how many machines of each PET machine type the cluster has: the
	// cluster-average machine the scheduler plans for mixes the cells in that proportion.
	TypeWeights []float64
	// Tail is the mass the Pareto fit looks at (0: 0.2).
	Tail float64
}

// FromTrace groups an arrival trace's tasks into jobs by job_id (a task without one is a job of
// one task). A job arrives with its earliest task; its tasks keep trace order. Task types are
// the PET's task types; a copy on a machine of type k takes the time of cell (type, k), or, for
// a task's first copy, the trace's exec_<k> column when it has one. Each class's Model mixes its
// cells by TypeWeights (or fits a Pareto tail to that mixture).
func FromTrace(tr *trace.Trace, pet *petbuild.PET, opt TraceOptions) (*Workload, error) {
	nt, nm := pet.NumTaskTypes(), pet.NumMachineTypes()
	if len(opt.TypeWeights) != nm {
		return nil, fmt.Errorf("%s: %d machine-type weights for %d PET machine types", tr.Name, len(opt.TypeWeights), nm)
	}
	if opt.Mode != FromPET && opt.Mode != ParetoTail {
		return nil, fmt.Errorf("distribution mode %q: want %q or %q", opt.Mode, FromPET, ParetoTail)
	}
	w := &Workload{MachineTypes: pet.MachineTypes()}
	bases := make([]*Discrete, nt)
	for t := range nt {
		var used []*Discrete
		var weights []float64
		on := make([]Quantiler, nm)
		for m := range nm {
			d, err := FromPMF(pet.Cell(t, m))
			if err != nil {
				return nil, fmt.Errorf("PET cell (%s, %s): %w", pet.TaskType(t), pet.MachineType(m), err)
			}
			on[m] = sampler{pmf.NewSampler(pet.Cell(t, m))}
			if opt.Mode == ParetoTail {
				on[m] = FitPareto(d, opt.Tail)
			}
			if opt.TypeWeights[m] > 0 {
				used, weights = append(used, d), append(weights, opt.TypeWeights[m])
			}
		}
		base, err := Mixture(used, weights)
		if err != nil {
			return nil, fmt.Errorf("task type %s: %w", pet.TaskType(t), err)
		}
		bases[t] = base
		w.Classes = append(w.Classes, Class{Name: pet.TaskType(t), Model: modelOf(base, opt), OnType: on})
	}
	execIndex, err := pet.MachineIndices(tr.ExecTypes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tr.Name, err)
	}
	byID := map[string]int{}
	mixed := map[string]Dist{}
	for _, task := range tr.Tasks {
		ty, ok := pet.TaskIndex(task.Type)
		if !ok {
			return nil, fmt.Errorf("%s: task %d has type %q, which the PET does not have", tr.Name, task.ID, task.Type)
		}
		id := task.JobID
		if id == "" {
			id = fmt.Sprintf("task-%d", task.ID)
		}
		k, seen := byID[id]
		if !seen {
			k = len(w.Jobs)
			byID[id] = k
			w.Jobs = append(w.Jobs, Job{ID: id, Arrival: task.Arrival, Class: ty})
		}
		j := &w.Jobs[k]
		j.Arrival = math.Min(j.Arrival, task.Arrival)
		if j.TaskClass == nil && ty != j.Class {
			j.TaskClass = slices.Repeat([]int{j.Class}, j.Tasks)
		}
		if j.TaskClass != nil {
			j.TaskClass = append(j.TaskClass, ty)
		}
		if task.Exec != nil && j.Observed == nil {
			j.Observed = make([][]float64, j.Tasks)
		}
		if j.Observed != nil {
			obs := slices.Repeat([]float64{math.NaN()}, nm)
			for c, v := range task.Exec {
				obs[execIndex[c]] = v
			}
			j.Observed = append(j.Observed, obs)
		}
		j.Tasks++
	}
	for k := range w.Jobs {
		j := &w.Jobs[k]
		if j.TaskClass == nil {
			continue
		}
		counts := classCounts(j.TaskClass)
		key := fmt.Sprint(counts)
		if _, ok := mixed[key]; !ok {
			var ds []*Discrete
			var ws []float64
			for c, n := range counts {
				if n > 0 {
					ds, ws = append(ds, bases[c]), append(ws, float64(n))
				}
			}
			mix, err := Mixture(ds, ws)
			if err != nil {
				return nil, fmt.Errorf("job %s: %w", j.ID, err)
			}
			mixed[key] = modelOf(mix, opt)
		}
		j.Model = mixed[key]
	}
	slices.SortStableFunc(w.Jobs, func(a, b Job) int { return cmp.Compare(a.Arrival, b.Arrival) })
	if len(w.Jobs) == 0 {
		return nil, fmt.Errorf("%s: no tasks", tr.Name)
	}
	return w, w.Check()
}

// classCounts counts the tasks of each class: a key for jobs of the same mix.
func classCounts(classes []int) []int {
	n := slices.Max(classes) + 1
	counts := make([]int, n)
	for _, c := range classes {
		counts[c]++
	}
	return counts
}

func modelOf(d *Discrete, opt TraceOptions) Dist {
	if opt.Mode == ParetoTail {
		return FitPareto(d, opt.Tail)
	}
	return d
}

// sampler draws a PET cell's durations as pmf's Sampler does (the impulse times).
type sampler struct{ s pmf.Sampler }

func (s sampler) Quantile(u float64) float64 { return s.s.At(u) }

// Describe summarises the classes' models for a report: the Pareto tail order of each fitted
// class, or the mean and support size of each discrete one.
func (w *Workload) Describe() string {
	var parts []string
	for _, c := range w.Classes {
		switch d := c.Model.(type) {
		case Pareto:
			parts = append(parts, fmt.Sprintf("%s: Pareto α=%.3g, mean %.4g", c.Name, d.Alpha, d.Mean()))
		case *Discrete:
			parts = append(parts, fmt.Sprintf("%s: histogram of %d points, mean %.4g", c.Name, d.Len(), d.Mean()))
		}
		if len(parts) == 12 && len(w.Classes) > 12 {
			parts = append(parts, fmt.Sprintf("… %d more", len(w.Classes)-12))
			break
		}
	}
	return strings.Join(parts, "; ")
}
