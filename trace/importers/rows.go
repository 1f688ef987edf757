package importers

import (
	"bufio"
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/trace"
)

// This file holds the reading machinery the importers share: CSV records
// and whitespace-separated lines, streamed with their physical line numbers,
// header lookup, and the checks on cell values that feed the bad-row report.

// openInput opens an input and removes gzip or zstd compression. Importers stream what they
// read, so the inflation limit is off; lines and CSV records are bounded (mark starts a
// record).
func openInput(in importInput) (*bufio.Reader, func(), func(), error) {
	rc, err := in.open()
	if err != nil {
		return nil, nil, nil, &trace.InputError{File: in.name, Msg: "cannot open", Err: err}
	}
	br, mark, done, err := trace.StreamText(in.name, rc)
	if err != nil {
		rc.Close()
		return nil, nil, nil, err
	}
	return br, mark, func() { done(); rc.Close() }, nil
}

// eachCSV streams the records of a CSV input to fn with their physical line
// numbers. A malformed record (a stray quote) is a bad row, not an error;
// a read or decompression failure is.
func (im *importer) eachCSV(in importInput, fn func(rec []string, line int) error) error {
	br, mark, done, err := openInput(in)
	if err != nil {
		return err
	}
	defer done()
	r := csv.NewReader(br)
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	r.LazyQuotes = true
	r.TrimLeadingSpace = true
	for {
		mark()
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			im.bad(Skipped, "malformed CSV record", &trace.InputError{File: in.name, Line: pe.Line, Msg: pe.Err.Error()})
			continue
		}
		if err != nil {
			return &trace.InputError{File: in.name, Msg: "read error", Err: err}
		}
		line, _ := r.FieldPos(0)
		if err := fn(rec, line); err != nil {
			return err
		}
	}
}

// eachLine streams the lines of a text input to fn without their line
// terminators; the slice is valid until fn returns.
func (im *importer) eachLine(in importInput, fn func(b []byte, line int) error) error {
	br, _, done, err := openInput(in)
	if err != nil {
		return err
	}
	defer done()
	lr := trace.NewLineReader(br)
	for {
		b, err := lr.ReadLine()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &trace.InputError{File: in.name, Line: lr.Line() + 1, Msg: "read error", Err: err}
		}
		if err := fn(b, lr.Line()); err != nil {
			return err
		}
	}
}

// firstRecord returns the first CSV record of an input, for telling which
// table a file holds; an empty file is an error.
func firstRecord(in importInput) ([]string, error) {
	br, _, done, err := openInput(in)
	if err != nil {
		return nil, err
	}
	defer done()
	r := csv.NewReader(br)
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.TrimLeadingSpace = true
	rec, err := r.Read()
	if err == io.EOF {
		return nil, &trace.InputError{File: in.name, Line: 1, Msg: "empty file"}
	}
	if err != nil {
		return nil, &trace.InputError{File: in.name, Line: 1, Msg: "cannot read the first line", Err: err}
	}
	return rec, nil
}

// header maps column names to positions; names compare case-insensitively
// without surrounding space or a byte-order mark.
type header map[string]int

func newHeader(rec []string) header {
	h := header{}
	for i, c := range rec {
		c = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(c, "\ufeff")))
		if _, dup := h[c]; !dup {
			h[c] = i
		}
	}
	return h
}

// col returns the position of the first of names the header has, or -1.
func (h header) col(names ...string) int {
	for _, n := range names {
		if i, ok := h[strings.ToLower(n)]; ok {
			return i
		}
	}
	return -1
}

// require returns the positions of names, or an error naming the first one
// missing.
func (h header) require(file string, line int, names ...string) ([]int, error) {
	out := make([]int, len(names))
	for i, n := range names {
		if out[i] = h.col(n); out[i] < 0 {
			return nil, &trace.InputError{File: file, Line: line, Column: n, Msg: "missing required column"}
		}
	}
	return out, nil
}

// cells reads one record's values for the bad-row checks. The first problem
// is kept; later reads are no-ops, so a row's checks read as a list.
type cells struct {
	file   string
	line   int
	rec    []string
	names  []string // column names for messages; may be shorter than rec
	reason string   // the first problem, "" when none
	err    *trace.InputError
}

func (c *cells) name(i int) string {
	switch {
	case i < 0:
		return ""
	case i < len(c.names):
		return c.names[i]
	}
	return "field " + strconv.Itoa(i+1)
}

func (c *cells) fail(i int, reason string) {
	if c.reason != "" {
		return
	}
	c.reason = reason
	c.err = &trace.InputError{File: c.file, Line: c.line, Column: c.name(i), Msg: reason}
	if i >= 0 && i < len(c.rec) {
		c.err.Value, c.err.HasValue = c.rec[i], true
	}
}

// text returns column i trimmed; empty is a problem.
func (c *cells) text(i int, what string) string {
	if i < 0 || i >= len(c.rec) {
		c.fail(i, what+" missing")
		return ""
	}
	s := strings.TrimSpace(c.rec[i])
	if s == "" {
		c.fail(i, what+" missing")
	}
	return s
}

// number returns column i as a finite number; empty or unreadable is a
// problem, reported as "<what> missing" or "<what> not a number".
func (c *cells) number(i int, what string) float64 {
	if i < 0 || i >= len(c.rec) {
		c.fail(i, what+" missing")
		return 0
	}
	v, err := trace.ParseNumber(c.rec[i])
	switch err {
	case nil:
		return v
	case trace.ErrNoNumber:
		c.fail(i, what+" missing")
	default:
		c.fail(i, what+" not a number")
	}
	return 0
}

// ok reports whether no check failed.
func (c *cells) ok() bool { return c.reason == "" }

// classify tells which table each input holds from its first record: kind
// returns "" for a record it does not recognise, and want says what was
// expected, for the error.
func classify(in []importInput, want string, kind func(rec []string) string) ([]string, error) {
	kinds := make([]string, len(in))
	for i, input := range in {
		rec, err := firstRecord(input)
		if err != nil {
			return nil, err
		}
		if kinds[i] = kind(rec); kinds[i] == "" {
			return nil, &trace.InputError{File: input.name, Line: 1, Msg: "not " + want}
		}
	}
	return kinds, nil
}

// inOrder calls fn on the inputs of each kind in order, lookup tables
// before the tables that need them, whatever the order of the files.
func inOrder(in []importInput, kinds, order []string, fn func(kind string, input importInput) error) error {
	for _, kind := range order {
		for i, input := range in {
			if kinds[i] == kind {
				if err := fn(kind, input); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
