package trace

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// csvTable reads CSV with a header line. Leading lines that start with '#'
// are comments; "# time_unit=ms" among them declares the file's unit (that
// is how this package records the unit of the CSV files it writes).
//
// It reads quote-free lines itself (csvfast.go) and hands the file to encoding/csv from the
// first chunk of lines with a quote on: r is nil until then.
type csvTable struct {
	src     string
	r       *csv.Reader
	rec     []string
	chunks  *lineChunker
	lines   csvLines
	buf     []byte
	cols    []string
	skipped int // physical lines before the CSV reader's line 1
	prev    int // the last line read before encoding/csv took over
	header  int
	unit    Unit
	hasUnit bool
	names   interners
	done    func()
	limit   *capReader
}

// csvChunk is the size of the chunks the fast path reads: large enough that a chunk's
// bookkeeping (a goroutine hand-over in the parallel read) is small against its parse, small
// enough that a few per worker stay in the cache.
const csvChunk = 256 << 10

// errToCSV says that the rest of the file is encoding/csv's.
var errToCSV = &lineError{"quoted field"}

func newCSVTable(src string, r io.Reader, lim InflateLimit) (*csvTable, error) {
	return newCSVTableSized(src, r, lim, csvChunk)
}

// newCSVTableSized is newCSVTable with fast-path chunks of about size bytes or, when size is
// 0, the reader as it was before the fast path: encoding/csv from the first line (the tests'
// reference).
func newCSVTableSized(src string, r io.Reader, lim InflateLimit, size int) (*csvTable, error) {
	br, c, done, err := openText(src, r, lim)
	if err != nil {
		return nil, err
	}
	t := &csvTable{src: src, done: done, limit: c}
	if err := t.readComments(br); err != nil {
		done()
		return nil, err
	}
	t.chunks = &lineChunker{r: br, lim: c, size: size, line: t.skipped}
	if size <= 0 {
		t.toCSV(chunk{first: t.skipped + 1})
	}
	hdr, err := t.readHeader()
	if err != nil {
		done()
		return nil, err
	}
	t.cols = make([]string, len(hdr))
	seen := map[string]bool{}
	for i, h := range hdr {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")) // Excel writes a BOM
		if seen[h] {
			done()
			return nil, &InputError{File: src, Line: t.header, Column: h, Msg: "duplicate column name in header"}
		}
		seen[h] = true
		t.cols[i] = h
	}
	if t.r != nil {
		t.r.FieldsPerRecord = len(hdr)
	}
	return t, nil
}

// readHeader reads the header line's fields and sets t.header.
func (t *csvTable) readHeader() ([]string, error) {
	if t.r == nil {
		switch err := t.nextLine(); err {
		case nil:
			t.header = t.lines.line
			hdr := make([]string, len(t.lines.fields))
			for i, f := range t.lines.fields {
				hdr[i] = string(f)
			}
			return hdr, nil
		case io.EOF:
			return nil, &InputError{File: t.src, Line: t.skipped + 1, Msg: "empty file: no header line"}
		case errToCSV:
		default:
			return nil, t.parseError(err)
		}
	}
	hdr, err := t.r.Read()
	if err == io.EOF {
		return nil, &InputError{File: t.src, Line: t.skipped + 1, Msg: "empty file: no header line"}
	}
	if err != nil {
		return nil, t.parseError(err)
	}
	t.header = t.skipped + 1
	if l, _ := t.r.FieldPos(0); l > 0 {
		t.header = t.skipped + l
	}
	return hdr, nil
}

// nextLine moves the fast path to the next non-empty line, reading chunks as it needs them.
// It returns io.EOF at the end, and errToCSV when it has handed the rest to encoding/csv.
func (t *csvTable) nextLine() error {
	for !t.lines.advance() {
		ch, err := t.chunks.next(t.buf)
		if err != nil {
			return err
		}
		t.buf = ch.data
		if ch.quoted {
			t.toCSV(ch)
			return errToCSV
		}
		t.lines.reset(ch)
	}
	return nil
}

// toCSV hands the file from chunk ch on to encoding/csv.
func (t *csvTable) toCSV(ch chunk) {
	t.prev, t.skipped = t.lines.line, ch.first-1
	t.r = csv.NewReader(t.chunks.rest(ch))
	t.r.ReuseRecord = true
	t.r.TrimLeadingSpace = true
	t.r.FieldsPerRecord = len(t.cols) // 0 before the header: encoding/csv takes the header's
	t.chunks, t.lines = nil, csvLines{}
}

// readComments consumes leading '#' lines.
func (t *csvTable) readComments(br *bufio.Reader) error {
	for {
		b, err := br.Peek(1)
		if err != nil || b[0] != '#' {
			return nil
		}
		line, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return &InputError{File: t.src, Line: t.skipped + 1, Err: err}
		}
		t.skipped++
		u, ok, uerr := parseUnitComment(line)
		if uerr != nil {
			return &InputError{File: t.src, Line: t.skipped, Column: "time_unit", Msg: "bad unit comment", Err: uerr}
		}
		if ok {
			t.unit, t.hasUnit = u, true
		}
	}
}

func (t *csvTable) parseError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		msg := pe.Err.Error()
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			msg = fmt.Sprintf("wrong number of fields (the header has %d)", len(t.cols))
		}
		return &InputError{File: t.src, Line: t.skipped + pe.Line, Msg: msg}
	}
	line, _ := t.where()
	return &InputError{File: t.src, Line: line, Msg: "read error", Err: err}
}

func (t *csvTable) name() string            { return t.src }
func (t *csvTable) columns() []string       { return t.cols }
func (t *csvTable) headerPos() (int, int64) { return t.header, 0 }
func (t *csvTable) project([]int)           {}
func (t *csvTable) fileUnit() (Unit, bool)  { return t.unit, t.hasUnit }
func (t *csvTable) columnUnit(int) Unit     { return "" }
func (t *csvTable) raw(col int) string {
	if t.r == nil {
		return string(t.lines.fields[col])
	}
	return t.rec[col]
}

func (t *csvTable) number(col int) (float64, cellStatus) {
	if t.r == nil {
		return parseNumberBytes(t.lines.fields[col])
	}
	return parseNumber(t.rec[col])
}

func (t *csvTable) next() error {
	if t.r == nil {
		switch err := t.nextLine(); err {
		case nil:
			if len(t.lines.fields) != len(t.cols) {
				return fieldCountErr(t.src, t.lines.line, len(t.cols))
			}
			return nil
		case io.EOF:
			return io.EOF
		case errToCSV:
		default:
			return t.parseError(err)
		}
	}
	t.limit.mark()
	rec, err := t.r.Read()
	if err == io.EOF {
		return io.EOF
	}
	if err != nil {
		return t.parseError(err)
	}
	t.rec = rec
	return nil
}

func (t *csvTable) where() (int, int64) {
	switch {
	case t.r == nil:
		return t.lines.line, 0
	case t.rec != nil:
		l, _ := t.r.FieldPos(0)
		return t.skipped + l, 0
	case t.prev > 0:
		return t.prev, 0
	}
	return t.header, 0
}

func (t *csvTable) text(col int) (string, cellStatus) {
	if t.r == nil {
		return textBytes(&t.names, col, t.lines.fields[col])
	}
	s := trimSpace(t.rec[col])
	if s == "" {
		return "", cellAbsent
	}
	return t.names.col(col).str(s), cellOK
}

func (t *csvTable) close() error {
	t.done()
	return nil
}
