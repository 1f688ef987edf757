package pmf

// The success chance of a task appended behind a predecessor is Σₖ e(k)·F_C(δ − tₖ): the
// chance that its execution takes tₖ and the machine was free by δ − tₖ. The two functions
// below compute it without building the convolution. For execution times > 0 the value equals
// the success chance Append returns under every drop model, because a predecessor that finishes
// by δ − tₖ < δ always lets the task start.

// SuccessAlg1 is 000 Algorithm 1 (§7.2.2): the success chance of a task with execution-time PMF
// exec queued behind a machine that becomes free at prev, in one merged pass. It walks exec's
// impulses from the latest one that can still meet the deadline back to the first, and prev's
// impulses forward, carrying the partial sum of prev over from one exec impulse to the next:
// each prev impulse and each exec impulse is visited at most once.
func SuccessAlg1(exec, prev PMF, deadline float64, strict bool) (float64, error) {
	prev, exec, err := commonStep(prev, exec)
	if err != nil {
		return 0, err
	}
	// Impulse k of exec pairs with prev impulses j where prev.Time(j)+exec.Time(k) ≤ δ, that is
	// j ≤ limit(k); limit grows by one for each step back in k.
	start := prev.origin + exec.origin
	limit := lastIndexAtOrBefore(start, prev.step, deadline) // for k = 0
	if strict {
		limit = lastIndexBefore(start, prev.step, deadline)
	}
	k := min(limit, len(exec.p)-1) // the latest exec impulse with any partner
	j, carried, success := 0, 0.0, 0.0
	for ; k >= 0; k-- {
		for j <= limit-k && j < len(prev.p) {
			carried += prev.p[j]
			j++
		}
		success += exec.p[k] * carried
	}
	return success, nil
}

// CDFTable is a PMF's cumulative distribution, kept so that the success chances of many
// waiting tasks behind the same machine cost one pass over each task's PMF and no convolution.
type CDFTable struct {
	origin, step float64
	cum          []float64 // cum[j] = P(X ≤ origin + j·step)
}

// CDFTable returns the cumulative table of d.
func (d PMF) CDFTable() CDFTable {
	cum := make([]float64, len(d.p))
	s := 0.0
	for j, x := range d.p {
		s += x
		cum[j] = s
	}
	return CDFTable{origin: d.origin, step: d.step, cum: cum}
}

// at returns P(X ≤ origin + j·step).
func (c CDFTable) at(j int) float64 {
	switch {
	case j < 0:
		return 0
	case j >= len(c.cum):
		return c.cum[len(c.cum)-1]
	}
	return c.cum[j]
}

// SuccessCDF is the CDF form Σₖ e(k)·F_C(δ − tₖ) of the success chance of a task with
// execution-time PMF exec behind a machine whose free-time CDF is prev. exec and prev must
// share a step (PET cells of one matrix always do).
func SuccessCDF(exec PMF, prev CDFTable, deadline float64, strict bool) float64 {
	start := prev.origin + exec.origin
	limit := lastIndexAtOrBefore(start, prev.step, deadline)
	if strict {
		limit = lastIndexBefore(start, prev.step, deadline)
	}
	success := 0.0
	for k := min(limit, len(exec.p)-1); k >= 0; k-- {
		success += exec.p[k] * prev.at(limit-k)
	}
	return success
}
