package speculate

// The Straggler Detection Algorithm, 002 §V-B, for the light regime. Level 1 is immediate: a
// task's first copy is judged once it has done the fraction s (Options.Detect) of its work, at
// start + s·t₁; it is a straggler when its remaining time (1 − s)·t₁ exceeds σ·E[x], with σ the
// job's σ* (BreakEvenSigma, Eq 28) unless Options.Sigma sets it. A straggler gets c* − 1 = 1
// backup copy on a random idle machine (Theorem 3: c* = 2), once. Levels 2 and 3 run at each
// slot: started jobs first (smallest remaining workload), then waiting jobs by increasing
// workload, one copy per task.
//
// Choices where the paper is silent: s = 0.1 by default (reference §6.3; σ* does not depend on
// it, flowtime does); the remaining time is the oracle one, as the analysis assumes (§6.4); with
// no idle machine at the detection instant there is no backup, as "duplication is made only
// once" implies, unless Options.RetryDetection (§6.14).

// sdaSlot is levels 2 and 3.
func (s *sim) sdaSlot() {
	if s.continueStarted() {
		s.startNew(oneCopy)
	}
}

// detect is level 1 at task t of job i's detection point.
func (s *sim) detect(i, t int) {
	if s.opt.Strategy == Auto && !s.window.light() {
		return
	}
	j := &s.jobs[i]
	if j.tasks == nil {
		return // the job is done
	}
	task := &j.tasks[t]
	if task.done || task.copies != 1 || task.flagged {
		return
	}
	s.stats.checks++
	if (1-s.opt.Detect)*task.first <= j.sdaAt {
		return
	}
	task.flagged = true
	if len(s.idle) > 0 {
		s.launch(i, t)
		return
	}
	if s.opt.RetryDetection {
		s.retry = append(s.retry, candidate{job: int32(i), task: int32(t)})
	}
}

// retryBackups backs up detected stragglers that found no machine, oldest detection first.
func (s *sim) retryBackups() {
	k := 0
	for ; k < len(s.retry) && len(s.idle) > 0; k++ {
		c := s.retry[k]
		j := &s.jobs[c.job]
		if j.tasks != nil && !j.tasks[c.task].done && j.tasks[c.task].copies == 1 {
			s.launch(int(c.job), int(c.task))
		}
	}
	s.retry = s.retry[k:]
}
