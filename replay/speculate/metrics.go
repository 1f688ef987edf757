package speculate

import (
	"math"
	"slices"
	"time"

	"github.com/hcreplay/hcreplay/replay"
)

// JobOutcome is one job's fate.
type JobOutcome struct {
	ID       string  `json:"job_id"`
	Tasks    int     `json:"tasks"`
	MeanTask float64 `json:"mean_task"` // E[x] the scheduler believed
	Arrival  float64 `json:"arrival"`
	Start    float64 `json:"start"`  // its first copy's start
	Finish   float64 `json:"finish"` // its last task's first finished copy
	Flowtime float64 `json:"flowtime"`
	// MachineTime is the busy time of every copy, killed ones included; Resource is γ times it
	// (the paper's unit); Wasted is the killed copies' share.
	MachineTime float64 `json:"machine_time"`
	Resource    float64 `json:"resource"`
	Wasted      float64 `json:"wasted"`
	Cost        float64 `json:"cost"`
	Copies      int     `json:"copies"`
	ExtraCopies int     `json:"extra_copies"` // clones and backups
	BackupsWon  int     `json:"backups_won"`  // tasks whose winning copy was not the first
}

// Summary is a run's metrics (reference §5.3). Everything but Timing is deterministic for a
// workload, machines and options.
type Summary struct {
	Strategy string `json:"strategy"`
	Seed     uint64 `json:"seed"`
	Jobs     int    `json:"jobs"`
	Tasks    int    `json:"tasks"`
	Machines int    `json:"machines"`

	FlowtimeMean      replay.Num `json:"flowtime_mean"`
	FlowtimeP50       replay.Num `json:"flowtime_p50"`
	FlowtimeP80       replay.Num `json:"flowtime_p80"`
	FlowtimeP90       replay.Num `json:"flowtime_p90"`
	FlowtimeP99       replay.Num `json:"flowtime_p99"`
	FlowtimeSmallMean replay.Num `json:"flowtime_small_mean"` // jobs of at most Options.SmallJob tasks
	FlowtimeLargeMean replay.Num `json:"flowtime_large_mean"`

	ResourceTotal replay.Num `json:"resource_total"` // γ · machine time
	ResourceMean  replay.Num `json:"resource_mean"`  // per job
	ResourceP80   replay.Num `json:"resource_p80"`
	// UtilityMinusResource is Σ(−flowtime) − Σ resource (002 §IV-C, U = −E[t]).
	UtilityMinusResource replay.Num `json:"utility_minus_resource"`
	MachineTime          replay.Num `json:"machine_time"`
	WastedTime           replay.Num `json:"wasted_time"` // killed copies' machine time
	WastedFraction       replay.Num `json:"wasted_fraction"`
	Cost                 replay.Num `json:"cost"`          // Σ price × busy time
	Energy               replay.Num `json:"energy_joules"` // active and idle power × time over the span
	Utilisation          replay.Num `json:"utilisation"`
	Span                 replay.Num `json:"span"` // first arrival to last finish

	Copies      int64 `json:"copies"`
	ExtraCopies int64 `json:"extra_copies"`
	BackupsWon  int64 `json:"backups_won"`
	Kills       int64 `json:"kills"`

	OfferedLoad         replay.Num `json:"offered_load"`      // ω = λ·E[m]·E[s]/M without speculation
	CutoffLoad          replay.Num `json:"cutoff_load"`       // ω^U (Eq 5), workload-weighted over jobs
	UnfinishedAtHorizon int        `json:"unfinished_at_end"` // jobs arrived by the horizon and not finished at it
	LightEpochs         replay.Num `json:"light_epochs"`      // auto: fraction of decisions in the light regime

	Epochs   int64 `json:"decision_epochs"`
	Launches int64 `json:"launches"`
	P2Solves int64 `json:"p2_solves"`
	P2Cells  int64 `json:"p2_cells"` // knapsack cells the exact P2 solver visited
	Checks   int64 `json:"straggler_checks"`
}

// Timing is the wall time a run took; it varies from run to run.
type Timing struct {
	DecisionSeconds float64 `json:"decision_seconds"`
	TotalSeconds    float64 `json:"total_seconds"`
	PerEpochMicros  float64 `json:"per_epoch_microseconds"`
	JobsPerSecond   float64 `json:"jobs_per_second"`
}

// Result is what a run produced.
type Result struct {
	Summary Summary
	Timing  Timing
	Jobs    []JobOutcome // in arrival order; nil unless Options.KeepJobs
}

func (s *sim) result(total time.Duration) *Result {
	opt := s.opt
	res := &Result{}
	sum := &res.Summary
	sum.Strategy, sum.Seed, sum.Jobs, sum.Machines = string(opt.Strategy), opt.Seed, len(s.w.Jobs), len(s.ms)
	flows := make([]float64, 0, len(s.jobs))
	resources := make([]float64, 0, len(s.jobs))
	var small, large []float64
	var machineTime, wasted, cost, flowSum float64
	horizon := opt.Horizon
	if horizon == 0 {
		horizon = s.w.Jobs[len(s.w.Jobs)-1].Arrival
	}
	first, last := s.w.Jobs[0].Arrival, 0.0
	var work, weightedU float64
	for i := range s.jobs {
		j, job := &s.jobs[i], &s.w.Jobs[i]
		flow := j.finish - job.Arrival
		flows = append(flows, flow)
		resources = append(resources, opt.Gamma*j.machineTime)
		if job.Tasks <= opt.SmallJob {
			small = append(small, flow)
		} else {
			large = append(large, flow)
		}
		sum.Tasks += job.Tasks
		machineTime += j.machineTime
		wasted += j.wasted
		cost += j.cost
		flowSum += flow
		sum.Copies += int64(j.copies)
		sum.ExtraCopies += int64(j.extra)
		sum.BackupsWon += int64(j.won)
		last = math.Max(last, j.finish)
		work += j.workload
		weightedU += j.workload * s.omegaU(j.model)
		if job.Arrival <= horizon && j.finish > horizon {
			sum.UnfinishedAtHorizon++
		}
		if opt.KeepJobs {
			res.Jobs = append(res.Jobs, JobOutcome{ID: job.ID, Tasks: job.Tasks, MeanTask: j.mean, Arrival: job.Arrival,
				Start: j.start, Finish: j.finish, Flowtime: flow, MachineTime: j.machineTime,
				Resource: opt.Gamma * j.machineTime, Wasted: j.wasted, Cost: j.cost,
				Copies: j.copies, ExtraCopies: j.extra, BackupsWon: j.won})
		}
	}
	n := float64(len(s.jobs))
	sum.FlowtimeMean = replay.Num(flowSum / n)
	slices.Sort(flows)
	sum.FlowtimeP50, sum.FlowtimeP80 = replay.Num(Percentile(flows, 50)), replay.Num(Percentile(flows, 80))
	sum.FlowtimeP90, sum.FlowtimeP99 = replay.Num(Percentile(flows, 90)), replay.Num(Percentile(flows, 99))
	sum.FlowtimeSmallMean, sum.FlowtimeLargeMean = replay.Num(mean(small)), replay.Num(mean(large))
	slices.Sort(resources)
	sum.ResourceTotal = replay.Num(opt.Gamma * machineTime)
	sum.ResourceMean = replay.Num(opt.Gamma * machineTime / n)
	sum.ResourceP80 = replay.Num(Percentile(resources, 80))
	sum.UtilityMinusResource = replay.Num(-flowSum - opt.Gamma*machineTime)
	sum.MachineTime, sum.WastedTime, sum.Cost = replay.Num(machineTime), replay.Num(wasted), replay.Num(cost)
	sum.WastedFraction = replay.Num(wasted / machineTime)
	span := math.Max(0, last-first)
	energy := 0.0
	for _, m := range s.ms {
		energy += m.power * (opt.ActivePowerFraction*m.busy + opt.IdlePowerFraction*math.Max(0, span-m.busy)) * opt.TimeUnitSeconds
	}
	sum.Energy, sum.Span = replay.Num(energy), replay.Num(span)
	sum.Utilisation = replay.Num(machineTime / (span * float64(len(s.ms))))
	sum.Kills = s.stats.kills
	if len(s.jobs) > 1 && last > first {
		lastArrival := s.w.Jobs[len(s.w.Jobs)-1].Arrival
		rate := (n - 1) / (lastArrival - first)
		sum.OfferedLoad = replay.Num(rate * work / n / float64(len(s.ms)))
	} else {
		sum.OfferedLoad = replay.Num(math.NaN())
	}
	sum.CutoffLoad = replay.Num(weightedU / work)
	sum.LightEpochs = replay.Num(math.NaN())
	if opt.Strategy == Auto && s.stats.epochs > 0 {
		sum.LightEpochs = replay.Num(float64(s.stats.lightEpochs) / float64(s.stats.epochs))
	}
	sum.Epochs, sum.Launches, sum.P2Solves, sum.P2Cells, sum.Checks = s.stats.epochs, s.stats.launches, s.stats.p2Solves, s.stats.p2Cells, s.stats.checks
	res.Timing = Timing{DecisionSeconds: s.wall.Seconds(), TotalSeconds: total.Seconds(), JobsPerSecond: n / total.Seconds()}
	if s.stats.epochs > 0 {
		res.Timing.PerEpochMicros = s.wall.Seconds() * 1e6 / float64(s.stats.epochs)
	}
	return res
}

// Percentile is the p-th percentile (0–100) of sorted values by linear interpolation between
// closest ranks; NaN for no values.
func Percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	x := p / 100 * float64(len(sorted)-1)
	lo := int(math.Floor(x))
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (x-float64(lo))*(sorted[lo+1]-sorted[lo])
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// CDF returns the empirical CDF of values as step points (x, fraction ≤ x), thinned to at most
// points points for plotting.
func CDF(values []float64, points int) (xs, ys []float64) {
	v := slices.Clone(values)
	slices.Sort(v)
	n := len(v)
	if n == 0 {
		return nil, nil
	}
	stride := max(1, n/max(points, 1))
	for k := stride - 1; k < n; k += stride {
		xs, ys = append(xs, v[k]), append(ys, float64(k+1)/float64(n))
	}
	if xs[len(xs)-1] != v[n-1] {
		xs, ys = append(xs, v[n-1]), append(ys, 1)
	}
	return xs, ys
}
