package speculate

// mantri is the paper's baseline (002 §II and §VI): when a machine is free, duplicate a running
// single-copy task if P(t_rem > 2·t_new) > δ (δ = 0.25), which with the oracle t_rem is
// t_rem > 2·F⁻¹(δ) (MantriThreshold). The seed gives only this rule; the rest follows the
// reference's recommended default (§3.4) so that ESE against Mantri isolates the speculation
// rule: ESE's three levels with Mantri's test in level 1, candidates by decreasing t_rem, and no
// small-job cloning. Mantri's kill-and-restart (external to the seed, unverified) is not
// modelled.
func (s *sim) mantri() {
	if !s.backupStragglers() {
		return
	}
	if !s.continueStarted() {
		return
	}
	s.startNew(oneCopy)
}

// none is the no-speculation baseline (reference §3.5): levels 2 and 3 with one copy per task.
func (s *sim) none() {
	if s.continueStarted() {
		s.startNew(oneCopy)
	}
}

// auto is the load-threshold switch of 002 §III (Eq 5; reference §3.6): at each decision it
// estimates the offered load ω = λ·E[m]·E[s]/M over the last Options.Window job arrivals and
// uses the light-regime strategy (SCA, or SDA) while ω < ω^U (OmegaU, weighted by the
// jobs' workloads), else ESE. The paper never runs this switch; it is an extension.
func (s *sim) auto() {
	if s.window.light() {
		s.stats.lightEpochs++
		if s.opt.Light == SDA {
			s.sdaSlot()
		} else {
			s.sca()
		}
		return
	}
	s.ese()
}
