package speculate

// sca is the Smart Cloning Algorithm, 002 Algorithm 1 (§IV-B), for the light regime. At the
// beginning of each slot:
//
//	1      for J in R(l), fewest remaining first: start ONE copy of each unassigned task
//	2–4    N ← idle machines, χ ← unscheduled jobs; return if N = 0
//	8–9    if Σ_{J∈χ} m_J < N: c ← P2(χ, N, r, γ); start c_J copies of every task of J ∈ χ
//	10–15  else: for J in χ by increasing workload: start ONE copy of each task, until N = 0
//
// P2 is solved exactly over the integers (SolveP2), as reference §2.3 recommends, instead of
// the paper's dual gradient projection; every task of a job gets the same c (§IV-A), and a job
// left partly started by step 15 continues at step 1 with single copies (reference §6.8).
// There is no monitoring and no kill apart from the siblings of a finished copy.
func (s *sim) sca() {
	if !s.continueStarted() { // step 1
		return
	}
	n := len(s.idle)
	if n == 0 || s.chi.len() == 0 {
		return
	}
	if s.chiTasks < n { // step 8: everything fits with one copy
		s.cloneWaiting(n)
		return
	}
	s.startNew(oneCopy) // steps 10–15
}

// cloneWaiting is step 9: every waiting job starts now with P2's copies.
func (s *sim) cloneWaiting(n int) {
	var ids []int
	var jobs []P2Job
	for s.chi.len() > 0 {
		i := s.popWaiting()
		ids = append(ids, i)
		jobs = append(jobs, P2Job{Tasks: s.w.Jobs[i].Tasks, Dist: s.jobs[i].model})
	}
	c, cells, err := SolveP2(jobs, n, s.opt.MaxCopies, s.opt.Gamma)
	s.stats.p2Solves++
	s.stats.p2Cells += cells
	for k, i := range ids {
		copies := 1
		if err == nil { // Σ m < n, so P2 is feasible
			copies = c[k]
		}
		s.cloneTasks(i, copies)
	}
}
