package heuristic

import (
	"math"
	"slices"

	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
)

// completionMemo keeps, within one mapping event, the expected completions MM's phase 1 has
// asked for, so that a later round of the same event asks again only where a queue moved.
//
// A round of a batch heuristic assigns at most a task per free machine, and the rounds repeat
// until no slot is left; under --defer-at after (thesis §4.5) the heuristic sees the whole batch,
// hopeless tasks included, and fills every free slot, so an event of a crowded replay runs about
// twenty rounds over some forty tasks (HCW19 arr34k, MM-P: 72,635 rounds in 3,853 events on four
// trials), each asking about every task on every free machine. Within an event nothing moves a
// queue but an assignment, so a completion asked on a machine that has taken no task since is
// still exact, and one asked before the machine took a task is a lower bound on the completion
// now under evict and none: each task in a queue frees the machine no earlier than it could
// start, and no earlier for a later start, so a task appended behind one more frees it no
// sooner (the reasoning of Event.CompletionBound, with the same slack). Under pending a task
// that would start past its deadline is skipped and frees the machine at once, sooner than one
// that starts just in time and runs: there an older completion bounds nothing, and the engine's
// own bound is asked instead. completions then gives each task the machine a
// scan of every machine would, ties to the lower index, from the memo and a few questions.
type completionMemo struct {
	n       int       // machines
	version []int32   // per machine, assignments to it in this event
	value   []float64 // per task handle and machine, a completion asked in this event
	at      []int32   // and the machine's version when it was asked; -1: not asked
	exact   []bool    // whether value is the completion itself, or a lower bound on it
	rows    []int     // the task handles with a row written in this event, to clear
	listed  []int32   // per task handle, the event (events) in which it was added to rows
	events  int32     // events started, the current one's number
	on      bool      // started in this event
	reused  int       // answers taken from the memo, for tests
}

// start begins a mapping event with n machines: nothing is known.
func (c *completionMemo) start(n int) {
	for _, h := range c.rows {
		row := c.at[h*c.n : (h+1)*c.n]
		for m := range row {
			row[m] = -1
		}
	}
	c.rows = c.rows[:0]
	if c.n != n {
		c.n, c.value, c.at, c.exact = n, c.value[:0], c.at[:0], c.exact[:0]
	}
	c.version = slices.Grow(c.version[:0], n)[:n]
	clear(c.version)
	c.events++
	c.on = true
}

// emptied is c with its storage kept and nothing in it, as a zero completionMemo starts: start
// sets the machines and row grows each row, marking it unknown, whatever the storage held.
func (c completionMemo) emptied() completionMemo {
	return completionMemo{version: c.version[:0], value: c.value[:0], at: c.at[:0], exact: c.exact[:0], rows: c.rows[:0], listed: c.listed[:0]}
}

// moved notes that machine m's queue changed (a task was assigned to it).
func (c *completionMemo) moved(m int) {
	if c.on {
		c.version[m]++
	}
}

// row is task h's completions (or bounds), versions and exactness, grown and cleared on first
// use in the event.
func (c *completionMemo) row(h int) ([]float64, []int32, []bool) {
	if need := (h + 1) * c.n; len(c.at) < need {
		old := len(c.at)
		c.value = slices.Grow(c.value, need-old)[:need]
		c.exact = slices.Grow(c.exact, need-old)[:need]
		c.at = slices.Grow(c.at, need-old)[:need]
		for i := old; i < need; i++ {
			c.at[i] = -1
		}
	}
	if len(c.listed) <= h {
		c.listed = append(c.listed, make([]int32, h+1-len(c.listed))...)
	}
	if c.listed[h] != c.events { // its row is cleared: list it, to be cleared at the next start
		c.listed[h] = c.events
		c.rows = append(c.rows, h)
	}
	return c.value[h*c.n : (h+1)*c.n], c.at[h*c.n : (h+1)*c.n], c.exact[h*c.n : (h+1)*c.n]
}

// memoCompletions is completions (minCompletion with later set: MM's fallback) from the memo:
// per task, first the machines whose completion is known exactly, then the others in the order
// of their lower bounds (a completion asked before the machine moved, or Event.CompletionBound,
// or none for the first task when nothing is known), asking for the exact completion until the
// next bound is clearly above the best. The answer is the machine a scan of every machine gives,
// the lowest index among ties: a machine not asked completes clearly later.
//
// With a global phase 2 over the free machines (Params.GlobalPhase2 without Phase1All: SJF) the
// round assigns only the pair that completes first (ties: the first task in batch order), so
// memoCompletions returns that pair alone, and a task after the lead so far asks only the
// machines where it might complete before the lead: one that cannot is never phase 2's pick.
// On BenchmarkReplay's workload SJF-P's success evaluations fell from 798,327 to 140,111 and its
// replay from 0.37 to 0.24 s, every decision the same.
func memoCompletions(ev replay.Event, p Params, b *buffers, tasks, machines []int) []pair {
	c := &b.memo
	pairs := b.pairs[:0]
	appendRaises := ev.DropModel() != pmf.Pending
	global := p.GlobalPhase2 && !p.Phase1All
	lead := pair{task: -1, machine: -1, completion: math.Inf(1), second: math.Inf(1)} // global's pick so far
	for i, t := range tasks {
		value, at, exact := c.row(t)
		best := pair{task: t, machine: -1, completion: math.Inf(1), second: math.Inf(1)}
		b.bounds = b.bounds[:0]
		for _, m := range machines {
			switch {
			case at[m] == c.version[m] && exact[m]:
				best = better(best, m, value[m])
				c.reused++
			case at[m] == c.version[m] || at[m] >= 0 && appendRaises:
				b.bounds = append(b.bounds, bounded{m, value[m]})
			default:
				b.bounds = append(b.bounds, bounded{m, math.Inf(-1)})
			}
		}
		if i > 0 && len(machines) > 1 { // completions' rule: the first task asks every machine
			for k := range b.bounds {
				x := &b.bounds[k]
				if m := x.machine; at[m] != c.version[m] { // stale or unknown: the engine's bound too
					x.bound = max(x.bound, ev.CompletionBound(t, m))
					value[m], at[m], exact[m] = x.bound, c.version[m], false
				}
			}
		}
		for rest := b.bounds; len(rest) > 0; {
			x := takeLowest(&rest)
			limit := min(best.completion, lead.completion) // lead: +Inf unless global
			if x.bound > limit+completionSlack(limit) {
				break // this machine and the rest complete later than the answer, or than the lead
			}
			v := b.completionIn(ev, p, t, x.machine)
			value[x.machine], at[x.machine], exact[x.machine] = v, c.version[x.machine], true
			best = better(best, x.machine, v)
		}
		switch {
		case !global:
			pairs = append(pairs, best)
		case best.machine >= 0 && (lead.task < 0 || best.completion < lead.completion):
			lead = best // complete before the lead: this task's own best machine is asked
		}
	}
	if global && lead.task >= 0 {
		pairs = append(pairs, lead)
	}
	return pairs
}

// known is task t's completion on machine m (row is t's, from row), from the memo when it was
// asked on m's queue as it is now, and otherwise asked and kept: within an event only an
// assignment moves a queue (moved), so the answer is the one asking again would give. A batch
// heuristic's rounds ask every task on every free machine (completions), and a round after an
// assignment moves one machine: the others' completions come from here.
func (c *completionMemo) known(ev replay.Event, p Params, b *buffers, row memoRow, t, m int) float64 {
	if row.at[m] == c.version[m] && row.exact[m] {
		c.reused++
		return row.value[m]
	}
	v := b.completionIn(ev, p, t, m)
	row.value[m], row.at[m], row.exact[m] = v, c.version[m], true
	return v
}

// everyCompletion is completions for several tasks (each asked about on every machine, no
// bounds) from the memo of the event's earlier rounds: a completion asked on a machine that took
// no task since is the memo's, the others are asked and kept, as known does. One loop per task
// over its row, without completions' list of machines and bounds and without a call per machine:
// MMU runs a round per free slot, each over the whole batch.
func everyCompletion(ev replay.Event, p Params, b *buffers, tasks, machines []int) []pair {
	pairs := b.pairs[:0]
	for _, t := range tasks {
		bm, bc := b.memo.best(ev, p, b, t, machines)
		pairs = append(pairs, pair{task: t, machine: bm, completion: bc, second: math.Inf(1)})
	}
	return pairs
}

// best is task t's machine among machines where it completes first (ties: the lower index) and
// that completion, each completion from the memo where the machine took no task since it was
// asked, and otherwise asked and kept, as known does; one loop over the task's row, without a
// call per machine.
func (c *completionMemo) best(ev replay.Event, p Params, b *buffers, t int, machines []int) (int, float64) {
	value, at, exact := c.row(t)
	bm, bc, bs := -1, math.Inf(1), math.Inf(1)
	for _, m := range machines {
		x := value[m]
		if at[m] != c.version[m] || !exact[m] {
			x = b.completionIn(ev, p, t, m)
			value[m], at[m], exact[m] = x, c.version[m], true
		} else {
			c.reused++
		}
		bm, bc, bs = ranked(bm, bc, bs, m, x)
	}
	return bm, bc
}

// memoRow is a task's row of the memo (completionMemo.row).
type memoRow struct {
	value []float64
	at    []int32
	exact []bool
}

// better is best, or machine m with completion x if that is sooner, or as soon on a lower index.
func better(best pair, m int, x float64) pair {
	if best.machine < 0 || x < best.completion || x == best.completion && m < best.machine {
		best.machine, best.completion = m, x
	}
	return best
}

// takeLowest removes from *bs the machine with the lowest bound (ties: the first in *bs) and
// returns it, keeping the others in order: what a stable sort by bound would list first, each
// time. memoCompletions asks the machines in that order and usually stops after one or two, so
// taking each as needed costs less than sorting them all (5.8% of MM-P's CPU on 30 HCW19 trials
// went to an insertion sort of about eight machines per task and round).
func takeLowest(bs *[]bounded) bounded {
	s := *bs
	j := 0
	for k := 1; k < len(s); k++ {
		if s[k].bound < s[j].bound {
			j = k
		}
	}
	x := s[j]
	*bs = append(s[:j], s[j+1:]...)
	return x
}
