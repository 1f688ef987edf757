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
type csvTable struct {
	src     string
	r       *csv.Reader
	cols    []string
	rec     []string
	skipped int // physical lines before the CSV reader's line 1
	header  int
	unit    Unit
	hasUnit bool
	names   interners
	done    func()
	limit   *capReader
}

func newCSVTable(src string, r io.Reader, lim InflateLimit) (*csvTable, error) {
	br, c, done, err := openText(src, r, lim)
	if err != nil {
		return nil, err
	}
	t := &csvTable{src: src, done: done, limit: c}
	if err := t.readComments(br); err != nil {
		done()
		return nil, err
	}
	t.r = csv.NewReader(br)
	t.r.ReuseRecord = true
	t.r.TrimLeadingSpace = true
	hdr, err := t.r.Read()
	if err == io.EOF {
		done()
		return nil, &InputError{File: src, Line: t.skipped + 1, Msg: "empty file: no header line"}
	}
	if err != nil {
		done()
		return nil, t.parseError(err)
	}
	t.header = t.skipped + 1
	if l, _ := t.r.FieldPos(0); l > 0 {
		t.header = t.skipped + l
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
	return t, nil
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

func (t *csvTable) name() string                         { return t.src }
func (t *csvTable) columns() []string                    { return t.cols }
func (t *csvTable) headerPos() (int, int64)              { return t.header, 0 }
func (t *csvTable) project([]int)                        {}
func (t *csvTable) fileUnit() (Unit, bool)               { return t.unit, t.hasUnit }
func (t *csvTable) columnUnit(int) Unit                  { return "" }
func (t *csvTable) raw(col int) string                   { return t.rec[col] }
func (t *csvTable) number(col int) (float64, cellStatus) { return parseNumber(t.rec[col]) }

func (t *csvTable) next() error {
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
	if t.rec == nil {
		return t.header, 0
	}
	l, _ := t.r.FieldPos(0)
	return t.skipped + l, 0
}

func (t *csvTable) text(col int) (string, cellStatus) {
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
