package speculate

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/trace"
)

// Limits of a set of replications.
const (
	// MaxSeeds caps the replications: every seed reruns every strategy, and 1000 replications
	// already put a confidence interval far below any difference between strategies worth
	// reporting.
	MaxSeeds = 1000
	// MaxMachines caps the cluster: the simulator keeps about 100 bytes per machine and P2 a
	// knapsack row per idle machine, and the paper's largest cluster has 3000.
	MaxMachines = 1_000_000
)

// Replication is one workload with the machines it runs on, under one seed: what a command
// replays through each strategy in turn.
type Replication struct {
	Name     string // for people: the synthetic settings and seed, or the trace file's name
	Label    string // for file names: "synthetic", or the trace file's name without extension
	Workload *Workload
	// Synthetic generates Workload when it is nil (Generate): the seeds' workloads together
	// could take Seeds times the memory of one.
	Synthetic   SyntheticOptions
	Machines    []replay.Machine
	Seed        uint64
	UnitSeconds float64
	TimeUnit    string // UnitSeconds by name, as the outputs record it
	Horizon     float64
}

// Generate makes the synthetic workload of r if it has none yet.
func (r *Replication) Generate() error {
	if r.Workload != nil {
		return nil
	}
	w, err := Synthetic(r.Synthetic)
	r.Workload = w
	return err
}

// SyntheticSet is the paper's synthetic workload (Xu & Lau 2015 §IV-C) as the speculate
// command's flags give it, replicated over Seeds seeds from Seed. Tasks and Mean are MIN:MAX
// (or one number for both); the errors name the flags, whose values these are.
type SyntheticSet struct {
	Rate, Horizon, Alpha float64
	Machines             int
	Tasks, Mean          string
	UnitSeconds          float64
	Seed                 uint64
	Seeds                int
}

// Replications checks the set and returns one replication per seed, each on the same
// Machines identical machines, its workload not yet generated (Replication.Generate).
func (s SyntheticSet) Replications() ([]Replication, error) {
	minT, maxT, err := ParseRange("--tasks", s.Tasks)
	if err != nil {
		return nil, err
	}
	minM, maxM, err := ParseRange("--mean", s.Mean)
	if err != nil {
		return nil, err
	}
	switch {
	case minT < 1 || maxT > MaxTasksPerJob:
		return nil, fmt.Errorf("--tasks %s: want 1 ≤ MIN ≤ MAX ≤ %d", s.Tasks, MaxTasksPerJob)
	case minT != float64(int(minT)) || maxT != float64(int(maxT)):
		return nil, fmt.Errorf("--tasks %s: want whole numbers", s.Tasks)
	case s.Machines < 1 || s.Machines > MaxMachines:
		return nil, fmt.Errorf("--machines %d: want 1..%d", s.Machines, MaxMachines)
	case !(s.UnitSeconds >= MinTimeUnitSeconds && s.UnitSeconds <= MaxTimeUnitSeconds):
		return nil, fmt.Errorf("--unit %g: want %g..%g seconds per time unit", s.UnitSeconds, MinTimeUnitSeconds, MaxTimeUnitSeconds)
	}
	machines := IdenticalMachines(s.Machines)
	var out []Replication
	for k := range s.Seeds {
		seed := s.Seed + uint64(k)
		syn := SyntheticOptions{Rate: s.Rate, Horizon: s.Horizon, MinTasks: int(minT), MaxTasks: int(maxT),
			MinMean: minM, MaxMean: maxM, Alpha: s.Alpha, Seed: seed}
		if err := syn.Check(); err != nil {
			return nil, err
		}
		name := fmt.Sprintf("λ=%g M=%d α=%g seed %d", s.Rate, s.Machines, s.Alpha, seed)
		out = append(out, Replication{Name: name, Label: "synthetic", Synthetic: syn, Machines: machines, Seed: seed,
			UnitSeconds: s.UnitSeconds, TimeUnit: TimeUnitName(s.UnitSeconds), Horizon: s.Horizon})
	}
	return out, nil
}

// TraceReplications turns each trace's jobs into a workload with task times from pet (mode)
// for the cluster machines, and replicates it over seeds seeds from seed. logf hears of each
// workload made.
func TraceReplications(traces []*trace.Trace, pet *petbuild.PET, machines []replay.Machine, mode DistMode,
	seed uint64, seeds int, logf func(format string, args ...any)) ([]Replication, error) {
	weights := TypeWeights(machines, pet.NumMachineTypes())
	sec, err := pet.UnitSeconds()
	if err != nil {
		return nil, err
	}
	var out []Replication
	for _, tr := range traces {
		w, err := FromTrace(tr, pet, TraceOptions{Mode: mode, TypeWeights: weights})
		if err != nil {
			return nil, err
		}
		logf("speculate: %s: %d jobs; %s", tr.Name, len(w.Jobs), w.Describe())
		label := strings.TrimSuffix(filepath.Base(tr.Name), filepath.Ext(tr.Name))
		for k := range seeds {
			out = append(out, Replication{Name: filepath.Base(tr.Name), Label: label, Workload: w, Machines: machines,
				Seed: seed + uint64(k), UnitSeconds: sec, TimeUnit: pet.TimeUnit()})
		}
	}
	return out, nil
}

// ParseRange parses MIN:MAX (or one number for both), finite with MIN ≤ MAX; name is what its
// errors call s by.
func ParseRange(name, s string) (lo, hi float64, err error) {
	a, b, found := strings.Cut(s, ":")
	if !found {
		b = a
	}
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	if err1 != nil || err2 != nil || !finite(lo) || !finite(hi) || lo > hi {
		return 0, 0, fmt.Errorf("%s %q: want MIN:MAX, finite numbers with MIN ≤ MAX", name, s)
	}
	return lo, hi, nil
}
