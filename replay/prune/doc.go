// Package prune is the probabilistic pruning mechanism of the journal paper (000 §5–6, Fig 4):
// a replay.Mapper that wraps any heuristic without changing it, and at every mapping event
//
//  1. accounts for what happened since the last event (deadline misses, per-type outcomes),
//  2. measures the oversubscription level d_τ = μ_τ·λ + d_{τ−1}·(1−λ) (000 Eq 11) and decides,
//     with a plain or a Schmitt-trigger toggle, whether dropping is engaged,
//  3. drops, walking each machine queue from the head, the tasks whose chance of success is at
//     or below their dropping threshold (000 §5.2; per-task adjustment by skewness and position,
//     000 Eq 7), recomputing the chances behind each drop,
//  4. lets the heuristic map, deferring every pair whose chance of success on the chosen machine
//     is at or below the deferring threshold (000 §5.3; thesis §3.1), at one of two places
//     (Config.DeferAt, --defer-at): after the heuristic has chosen its pairs from the whole
//     batch (the default; after-rejudge judges each pair in the queue it joins), or before, as
//     PAM does. The threshold is static, the dropping threshold plus a gap (003 §V-B), or
//     dynamic (000 Eqs 8–10),
//  5. lowers both thresholds of task types that suffer (000 §6.3.2: sufferage with factor ϑ,
//     clamped to [0, 1]), which turns PAM into PAMF and works with any heuristic.
//
// Variants, named as in the thesis (§5.1.1): X (no pruning), X-D (defer only), X-Drop (drop
// only), X-P (both). Immediate-mode heuristics get dropping, and deferring works for them as a
// defer pool (thesis §7.2.5): a deferred task waits in the batch for the next mapping event
// instead of being mapped on arrival.
//
// Readings where the papers are silent or garbled, each an option ([IMPL] of
// reference/thesis-2018.md §2 unless said otherwise):
//   - engaged = d ≥ T (not d > T), so T = 0 means always; d_0 = 0.
//   - A miss is a task that left the system by its deadline passing: dropped or expired at the
//     deadline, or finished late. Probabilistic drops do not count, or dropping would feed itself.
//   - Thresholds compare with ≤, and a threshold of 0 disables that kind of pruning.
//   - The per-task dropping threshold is θ_i = θ + (−s_i·ρ)/(κ_i+1) − sufferage, clamped to
//     [0, 1], with κ = 0 for the head and s_i the bounded skewness of the task's completion PMF.
//   - Where deferring sits for a heuristic retrofitted with pruning (Config.DeferAt). After, the
//     default: the heuristic chooses its pairs from the whole batch, against the queues it
//     builds, and then every pair whose chance was at or below the threshold when it was chosen
//     is deferred instead of assigned; its slot stays free until the next event. That is the
//     thesis's retrofit (Gentry 2018, "Robust Dynamic Resource Allocation via Probabilistic Task
//     Pruning in Heterogeneous Computing Systems", §4.5: "the heuristic is invoked and
//     determines the best mapping for tasks in the batch queue. Prior to assigning the tasks to
//     machines, the tasks with low chance of success are deferred"), and it is what separates
//     the retrofits from PAM there. After-rejudge: the same, but the pairs are judged in the
//     heuristic's order, each against the queue it joins once the pairs deferred before it in
//     the event are taken back. Under after, a hopeless task the heuristic puts first on a
//     machine takes the pairs behind it down with it (each was judged behind the hopeless task),
//     and the machine idles until the next event; §4.5 does not say which queue the chance is
//     judged in. Before: tasks that no machine with a free slot gives a chance above the
//     threshold are deferred before the heuristic sees the batch, and a
//     low-chance assignment becomes a deferral as it is made, so the heuristic fills the slot
//     with another task; that is PAM's own ordering (thesis §4.3: "in the second phase, pruning
//     occurs and defers …"), under which every retrofit picks from the tasks PAM picks from.
//     PAM defers between its phases under both. A heuristic that ranks hopeless tasks first
//     idles under after: MMU under evict, where a hopeless task's drop-aware expected completion
//     sits at its deadline and its urgency is the largest, picks the very pairs the deferral
//     takes back (MMU-P at the HCW19 34k level: 5.6 % after, 27.0 % before; docs/fidelity.md).
//   - Who the dropping phase may drop (Config.DropRunning, --drop-running): by default a running
//     task only under the evict drop model; always (thesis Alg. 1 starts its loop at the
//     executing task, whatever the deadline model), or never.
//   - Sufferage (Config.SufferExpired, --sufferage-expired): an on-time completion lowers its
//     type's sufferage by ϑ, every other exit raises it by ϑ, the pruner's own drops included
//     (reported at the next event); a task that expires unmapped raises it only when asked. The
//     papers are silent on expiries, and counting them saturates the sufferage of most types at
//     the journal's levels (docs/fidelity.md).
//   - Dynamic deferring [IMPL] (000 Eq 10 did not survive in any source: the conference paper
//     has Eqs 1–8 only, the thesis none): with ψ the batch size over the free slots, ω the share
//     of batch tasks whose best chance exceeds the current threshold, and ρ̄ the mean chance of
//     success of the queued tasks, the threshold moves to θ − c when ψ ≤ 1 or ω = 0, and to
//     ρ̄ − c otherwise; it never falls below the dropping threshold ("no tasks will be scheduled
//     that would be immediately dropped", thesis §4.3). It starts at the dropping threshold plus
//     0.25 unless told (--defer dynamic:C:START); c and the start are sweep values of "defer".
//
// What the package does not do: it does not choose machines (the wrapped heuristic does) and it
// does not compute probabilities (the replay's Event does).
package prune
