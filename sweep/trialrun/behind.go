package trialrun

// writeBehindChunk is how many rows a writeBehind hands over at a time: one exchange between
// the goroutines per thousand rows. writeBehindChunks is how many chunks it holds, filled,
// being filled or being written: 64, as many rows as a row group of tasks.parquet (64Ki,
// report.TaskWriter), 7 MB of task rows whatever the trace's length. The writer's work comes in
// bursts, as parquet-go encodes and compresses what it has buffered, and the chunks must cover
// a burst or the replay waits for it: on a million MM tasks the replay took 6.9–7.3 s with 3
// chunks, 6.4–7.0 s with 16 and 6.4–6.6 s with 64 (three runs of each in turn; 5.9 s without
// --out).
const (
	writeBehindChunk  = 1024
	writeBehindChunks = 64
)

// writeBehind writes rows in a goroutine of its own, a chunk at a time, in the order they were
// added: prefetch's counterpart for a replay's outputs. Encoding and compressing a million task
// outcomes into tasks.parquet took a quarter of a replay with MM (2.0 s of 8.1, CPU profile),
// which it now spends on a second core. When the writer falls every chunk behind, add waits for
// it, so memory stays bounded whatever the trace's length. After a write's error, the rows that
// follow are not written, and close reports that error.
type writeBehind[T any] struct {
	write func(T) error
	full  chan []T   // chunks to write, in order; closed by close
	free  chan []T   // chunks written, back to add
	done  chan error // the writer's first error, sent once every chunk is written
	cur   []T        // the chunk being filled
}

// newWriteBehind starts a writer that calls write for each row added, in chunks of chunk rows,
// at most n chunks at a time.
func newWriteBehind[T any](write func(T) error, chunk, n int) *writeBehind[T] {
	b := &writeBehind[T]{write: write, full: make(chan []T, n), free: make(chan []T, n),
		done: make(chan error, 1), cur: make([]T, 0, chunk)}
	for range n - 1 {
		b.free <- make([]T, 0, chunk)
	}
	go b.run()
	return b
}

func (b *writeBehind[T]) run() {
	var err error
	for rows := range b.full {
		for _, r := range rows {
			if err != nil {
				break
			}
			err = b.write(r)
		}
		b.free <- rows[:0] // never blocks: free holds every chunk
	}
	b.done <- err
}

// add queues a row to write.
func (b *writeBehind[T]) add(r T) {
	b.cur = append(b.cur, r)
	if len(b.cur) == cap(b.cur) {
		b.full <- b.cur
		b.cur = <-b.free
	}
}

// close writes the rows still queued, waits for the writer, and returns its first error. The
// writeBehind takes no rows after.
func (b *writeBehind[T]) close() error {
	if len(b.cur) > 0 {
		b.full <- b.cur
	}
	b.cur = nil
	close(b.full)
	return <-b.done
}
