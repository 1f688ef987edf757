package trace

import (
	"bufio"
	"errors"
	"io"
)

// This file exports, for the production-trace importers (package
// trace/importers), the text reading the package's own readers use: the
// same decompression, the same 64 MiB bound on a line and a CSV record, the
// same line counting and the same reading of numbers, so that an importer
// and a reader agree on what a line and a number are.

// StreamText removes gzip or zstd compression from r (recognised by its
// magic number) and buffers it, with no limit on how far it inflates (an
// importer streams what it reads), stopping at a line longer than 64 MiB and
// at a CSV record that has read more than that since the last call of mark.
// done releases the decompressor; it does not close r.
func StreamText(name string, r io.Reader) (br *bufio.Reader, mark, done func(), err error) {
	br, c, done, err := openText(name, r, InflateLimit{MaxBytes: -1, MaxRatio: -1})
	if err != nil {
		return nil, nil, nil, err
	}
	return br, c.mark, done, nil
}

// LineReader reads the physical lines of a StreamText reader, of any length
// up to 64 MiB, and counts them.
type LineReader struct{ lr lineReader }

// NewLineReader reads lines from br.
func NewLineReader(br *bufio.Reader) *LineReader { return &LineReader{lineReader{r: br}} }

// ReadLine returns the next line without its terminator, or io.EOF after
// the last. The slice is valid until the next call.
func (l *LineReader) ReadLine() ([]byte, error) { return l.lr.readLine() }

// Line is the number of lines read, counting from 1.
func (l *LineReader) Line() int { return l.lr.line }

// The errors of ParseNumber.
var (
	ErrNoNumber  = errors.New("no value")     // an empty or blank cell
	ErrNotNumber = errors.New("not a number") // anything but a finite decimal number
)

// ParseNumber reads a number the way the readers read a cell: a decimal
// float (".97" and exponents included) without surrounding space; NaN,
// infinities, hexadecimal and digit separators are ErrNotNumber.
func ParseNumber(s string) (float64, error) {
	v, st := parseNumber(s)
	switch st {
	case cellOK:
		return v, nil
	case cellAbsent:
		return 0, ErrNoNumber
	}
	return 0, ErrNotNumber
}
