package trace

import (
	"bytes"
	"fmt"
	"io"
)

// InflateLimit bounds what a reader inflates from one compressed input (a .gz or .zst file, a
// deflated zip member), so that a small file that expands to gigabytes of valid-looking rows
// (a decompression bomb) stops with an error naming the file instead of taking the machine's
// memory. Plain files are not bounded by it: their size is on disk for the user to see.
type InflateLimit struct {
	// MaxBytes is the most one input may inflate to; 0 means DefaultMaxInflate, negative
	// means no limit.
	MaxBytes int64
	// MaxRatio is the most one input may inflate to per compressed byte, checked once it has
	// inflated past ratioFloor bytes; 0 means DefaultMaxRatio, negative means no limit.
	MaxRatio float64
}

// DefaultMaxInflate is the default of InflateLimit.MaxBytes: 2 GiB of text is about 70 million
// rows, which take about 6 GB once read (a Task is 80 bytes plus its type name).
const DefaultMaxInflate = 2 << 30

// DefaultMaxRatio is the default of InflateLimit.MaxRatio. Real traces compress 5 to 30 times
// (the HCW19 trials in their zip: 4.6); gzip cannot exceed about 1030.
const DefaultMaxRatio = 100

// ratioFloor is where the ratio starts to count: below it any ratio is harmless.
const ratioFloor = 8 << 20

func (l InflateLimit) maxBytes() int64 {
	if l.MaxBytes == 0 {
		return DefaultMaxInflate
	}
	return l.MaxBytes
}

func (l InflateLimit) maxRatio() float64 {
	if l.MaxRatio == 0 {
		return DefaultMaxRatio
	}
	return l.MaxRatio
}

// check says what is wrong with inflating compressed bytes to inflated ones, or nil.
func (l InflateLimit) check(inflated, compressed int64) error {
	if m := l.maxBytes(); m >= 0 && inflated > m {
		return &inflateError{fmt.Sprintf("decompresses to more than %s, the limit (--max-inflate raises it)", byteSize(m))}
	}
	if r := l.maxRatio(); r >= 0 && inflated > ratioFloor && float64(inflated) > r*float64(max(compressed, 1)) {
		return &inflateError{fmt.Sprintf("decompresses more than %g times its compressed size past %s: a decompression bomb? (--max-inflate-ratio raises the limit)", r, byteSize(ratioFloor))}
	}
	return nil
}

type inflateError struct{ s string }

func (e *inflateError) Error() string { return e.s }

// byteSize prints n in the largest binary unit that divides it, or in bytes.
func byteSize(n int64) string {
	for _, u := range []struct {
		s string
		v int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.v && n%u.v == 0 {
			return fmt.Sprintf("%d %s", n/u.v, u.s)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// countingReader counts the bytes read through it: the compressed side of a decompressor.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// inflateGuard stops a decompressed stream at its InflateLimit.
type inflateGuard struct {
	r          io.Reader
	compressed *countingReader
	n          int64
	lim        InflateLimit
}

func (g *inflateGuard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	g.n += int64(n)
	if lerr := g.lim.check(g.n, g.compressed.n); lerr != nil {
		return 0, lerr
	}
	return n, err
}

// capReader stops a text stream at a line longer than maxLine bytes, and (for CSV, whose
// quoted fields may span lines) at a record that has read more than maxLine bytes since the
// table last called mark: the CSV reader would otherwise grow one record without bound.
type capReader struct {
	r    io.Reader
	line int64 // bytes since the last '\n'
	rec  int64 // bytes since mark
}

func (c *capReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if i := bytes.LastIndexByte(p[:n], '\n'); i >= 0 {
		c.line = int64(n - 1 - i)
	} else {
		c.line += int64(n)
	}
	c.rec += int64(n)
	switch {
	case c.line > maxLine:
		return 0, errLineTooLong
	case c.rec > maxLine+readAhead:
		return 0, errRecordTooLong
	}
	return n, err
}

// mark starts a new record.
func (c *capReader) mark() { c.rec = 0 }

// readAhead is the text tables' buffer: what the reader may have read past a record.
const readAhead = 64 << 10

var errRecordTooLong = &lineError{"record longer than 64 MiB (an unclosed quote?)"}
