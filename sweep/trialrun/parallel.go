package trialrun

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/sweep/trialset"
)

// trialDone is what a worker of parallel leaves of a trial: its results, the error that
// stopped it, and its log lines, for the collector to hand on in trial order.
type trialDone struct {
	results []*replay.Result // per mapper, up to the error
	marks   []int            // the number of log lines written before each result
	err     error
	log     *trialLog
}

// parallel replays the trials jobs at a time, each trial through its mappers in turn on one
// worker, and hands the results to emit in trial order, with each trial's log lines just
// before them: the log is as one trial after another would write it. At most 2×jobs trials
// are replayed ahead of the one emit waits for, so memory stays that of a few trials. The
// first error in trial order is returned after the results before it; the trials still
// running are then cancelled.
func (r *Runner) parallel(ctx context.Context, trials []trialset.Trial, jobs int, emit func(i, j int, res *replay.Result) error) error {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }() // no worker outlives the replay
	slots := make([]chan trialDone, len(trials))
	for i := range slots {
		slots[i] = make(chan trialDone, 1)
	}
	ahead := make(chan struct{}, 2*jobs) // a token per trial started and not yet emitted
	var next atomic.Int64
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			scratch := new(storage)
			for {
				select {
				case ahead <- struct{}{}:
				case <-ctx.Done():
					return
				}
				i := int(next.Add(1)) - 1
				if i >= len(trials) {
					return
				}
				log := new(trialLog)
				done := trialDone{log: log}
				done.err = r.runTrial(ctx, log, log.defer_(trials[i]), i, len(trials), scratch, func(_, _ int, res *replay.Result) error {
					done.results = append(done.results, res)
					done.marks = append(done.marks, log.len())
					return nil
				})
				slots[i] <- done
			}
		}()
	}
	told := map[any]bool{} // the keys of the once-per-spec warnings told
	for i := range trials {
		var done trialDone
		select {
		case done = <-slots[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		for j, res := range done.results { // the lines before each result, as -j 1 writes them
			done.log.flush(r.Progress, told, done.marks[j])
			if err := emit(i, j, res); err != nil {
				return err
			}
		}
		done.log.flush(r.Progress, told, -1)
		if done.err != nil {
			return done.err
		}
		<-ahead
	}
	return nil
}

// trialLog holds a trial's log lines while parallel replays it beside others: the lines it
// was given as a Progress, and the warnings its trial told (defer_), each with the key of the
// warning a spec tells once, or nil. It draws no bar.
type trialLog struct {
	mu      sync.Mutex
	partial strings.Builder // a line written in pieces, until its newline
	lines   []logLine
	flushed int // lines written by flush
}

type logLine struct {
	key  any
	text string
}

func (l *trialLog) add(key any, text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, logLine{key, text})
}

// Write takes a log's bytes, a line at a time.
func (l *trialLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, b := range p {
		if b != '\n' {
			l.partial.WriteByte(b)
			continue
		}
		l.lines = append(l.lines, logLine{text: l.partial.String()})
		l.partial.Reset()
	}
	return len(p), nil
}

// Logf holds a log line, which may hold newlines, as a console would write it.
func (l *trialLog) Logf(format string, args ...any) { fmt.Fprintf(l, format+"\n", args...) }

// Tasks draws no bar beside the others' trials.
func (l *trialLog) Tasks(int, string) Bar { return noBar{l} }

// noBar is a Bar that draws nothing, whose log lines go to p.
type noBar struct{ p Progress }

func (noBar) SetTotal(int)                      {}
func (noBar) Counter() func()                   { return nil }
func (b noBar) Logf(format string, args ...any) { b.p.Logf(format, args...) }
func (noBar) Stop()                             {}

// defer_ returns tr with its warnings told to l instead of the set's callback: a warning the
// spec tells once is told under the spec's key, so that flush tells it for the first trial in
// order that has it, as one trial after another would (trialset.Trial.Deferred).
func (l *trialLog) defer_(tr trialset.Trial) trialset.Trial {
	return tr.Deferred(func(msg string) { l.add(nil, "warning: "+msg) },
		func(key any, msg string) { l.add(key, "warning: "+msg) })
}

func (l *trialLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.lines)
}

// flush writes l's lines up to line upto (all of them when it is negative), from the first not
// written yet, to p, as the trial's replay would have, leaving out the once-per-spec warnings
// told already. The trial has ended when flush is called.
func (l *trialLog) flush(p Progress, told map[any]bool, upto int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if upto < 0 {
		if l.partial.Len() > 0 {
			l.lines = append(l.lines, logLine{text: l.partial.String()})
			l.partial.Reset()
		}
		upto = len(l.lines)
	}
	for _, ln := range l.lines[l.flushed:upto] {
		if ln.key != nil {
			if told[ln.key] {
				continue
			}
			told[ln.key] = true
		}
		p.Logf("%s", ln.text)
	}
	l.flushed = upto
}
