package speculate

// ese is Enhanced Speculative Execution, 002 Algorithm 2 (§VI-A), for the heavy regime. At the
// beginning of each slot:
//
//	level 1  D(l) = running single-copy tasks with t_rem > σ·E[x]: by decreasing t_rem, start
//	         one duplicate each on a random idle machine; return when none is idle
//	level 2  R(l) by increasing remaining workload: one copy of each unscheduled task
//	level 3  χ(l) by increasing workload m·E[x]: a small job (m < η·N/|χ| and E[x] < ξ) starts
//	         with c* copies of each task (Eq 29), any other with one
//
// σ is the job's σ* (BreakEvenSigma, which equals ESE's optimum of Eqs 30–33, reference §2.5)
// unless Options.Sigma sets it (the paper's 1.7). Choices where the paper is silent: t_rem is
// the oracle remaining time (reference §6.4); N and |χ| in the small-job test are their values
// when the job is considered, after the jobs before it started (§6.9); Eq 29 is P2 for one job,
// capped by c ≤ r and m·c ≤ N (§2.6). ξ is compared with E[x] as printed, so with the paper's
// ξ = 1 and E[x] ~ U(1, 4) no job is small (§6.9).
func (s *sim) ese() {
	if !s.backupStragglers() { // level 1
		return
	}
	if !s.continueStarted() { // level 2
		return
	}
	s.startNew(s.eseCopies) // level 3
}

// eseCopies is the copies of each task of waiting job i, just taken from χ.
func (s *sim) eseCopies(i int) int {
	m, n, waiting := s.w.Jobs[i].Tasks, len(s.idle), s.chi.len()+1
	if !(float64(m) < s.opt.Eta*float64(n)/float64(waiting) && s.jobs[i].mean < s.opt.Xi) {
		return 1
	}
	limit := min(s.opt.MaxCopies, n/m)
	if limit <= 1 {
		return 1
	}
	c, cells, err := SolveP2([]P2Job{{Tasks: m, Dist: s.jobs[i].model}}, m*limit, limit, s.opt.Gamma)
	s.stats.p2Solves++
	s.stats.p2Cells += cells
	if err != nil {
		return 1
	}
	return c[0]
}
