package trace

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// datTable reads the HCW19 arrival format (SPEC §4.4):
//
//	taskCount=800;
//	.99 10 176.42;
//	1.41 10 176.84;
//
// The first line declares the number of tasks and every further non-blank
// line is "arrival taskType deadline;" with the task type an integer index.
// A file with fewer or more tasks than declared is reported as truncated or
// malformed. The format carries no time unit; ReadOptions.FileUnit (default
// ms) applies.
type datTable struct {
	src      string
	lr       lineReader
	declared int
	count    int
	fields   [3][]byte // of the current line: valid until next
	typ      string    // fields[1], normalised and interned
	names    interner
	done     func()
}

var datColumns = []string{"arrival", "task_type", "deadline"}

// declaredRows is the header's taskCount (declarer).
func (t *datTable) declaredRows() int { return t.declared }

func newDatTable(src string, r io.Reader, lim InflateLimit) (*datTable, error) {
	br, _, done, err := openText(src, r, lim)
	if err != nil {
		return nil, err
	}
	t := &datTable{src: src, done: done}
	t.lr.r = br
	if err := t.readHeader(); err != nil {
		done()
		return nil, err
	}
	return t, nil
}

func (t *datTable) readHeader() error {
	for {
		b, err := t.lr.headLine(t.src, "no taskCount line")
		if err != nil {
			return err
		}
		s := strings.TrimSpace(string(b))
		if s == "" {
			continue
		}
		v, ok := strings.CutPrefix(s, "taskCount=")
		n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(v, ";")))
		if !ok || err != nil || n < 0 {
			return &InputError{File: t.src, Line: t.lr.line, Value: s, HasValue: true,
				Msg: "is not a taskCount=N; header (an HCW19 .dat file starts with one)"}
		}
		t.declared = n
		return nil
	}
}

func (t *datTable) next() error {
	for {
		b, err := t.lr.readLine()
		if err == io.EOF {
			if t.count != t.declared {
				return &InputError{File: t.src, Line: t.lr.line, Msg: fmt.Sprintf(
					"the header declares taskCount=%d but the file has %d tasks (truncated?)", t.declared, t.count)}
			}
			return io.EOF
		}
		if err != nil {
			return &InputError{File: t.src, Line: t.lr.line + 1, Msg: "read error", Err: err}
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		if err := t.split(b); err != nil {
			return err
		}
		t.count++
		if t.count > t.declared {
			return &InputError{File: t.src, Line: t.lr.line, Msg: fmt.Sprintf(
				"more tasks than the header's taskCount=%d", t.declared)}
		}
		return nil
	}
}

// split cuts "a t d;" into its three fields. The numbers stay byte slices of the line, valid
// until the next record, and are parsed without a copy (parseNumberBytes); the type index is
// normalised ("07" is "7") and interned. What it accepts and refuses, and its messages, are those
// of the string version it replaced (TestDatTableSameAsStrings).
func (t *datTable) split(b []byte) error {
	s := bytes.TrimSpace(bytes.TrimSuffix(b, semicolon))
	n := 0
	for len(s) > 0 && n <= 3 {
		i := 0 // a loop over bytes: bytes.IndexAny and TrimLeft built a set per call
		for i < len(s) && s[i] != ' ' && s[i] != '\t' {
			i++
		}
		if n < 3 {
			t.fields[n] = s[:i]
		}
		n++
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		s = s[i:]
	}
	if n != 3 {
		return &InputError{File: t.src, Line: t.lr.line, Value: string(b), HasValue: true,
			Msg: "is not an \"arrival taskType deadline;\" line"}
	}
	f := t.fields[1]
	if !isIndex(f) {
		return &InputError{File: t.src, Line: t.lr.line, Column: "task_type", Value: string(f), HasValue: true,
			Msg: "is not a task type index (a non-negative integer)"}
	}
	if len(f) > 1 && f[0] == '0' {
		k, _ := strconv.Atoi(string(f))
		t.typ = t.names.str(strconv.Itoa(k))
		return nil
	}
	t.typ = t.names.bytes(f)
	return nil
}

var semicolon = []byte(";")

// isIndex reports whether s is a non-negative decimal integer of sane length.
func isIndex[S string | []byte](s S) bool {
	if len(s) == 0 || len(s) > 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (t *datTable) name() string                         { return t.src }
func (t *datTable) columns() []string                    { return datColumns }
func (t *datTable) headerPos() (int, int64)              { return 1, 0 }
func (t *datTable) project([]int)                        {}
func (t *datTable) where() (int, int64)                  { return t.lr.line, 0 }
func (t *datTable) fileUnit() (Unit, bool)               { return "", false }
func (t *datTable) columnUnit(int) Unit                  { return "" }
func (t *datTable) number(col int) (float64, cellStatus) { return parseNumberBytes(t.fields[col]) }
func (t *datTable) close() error                         { t.done(); return nil }

func (t *datTable) text(col int) (string, cellStatus) { return t.raw(col), cellOK }

func (t *datTable) raw(col int) string {
	if col == 1 {
		return t.typ
	}
	return string(t.fields[col])
}
