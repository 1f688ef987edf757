package trace

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"unsafe"
)

// jsonlTable reads JSON Lines: one JSON object per line. Blank lines are
// skipped. Leading lines that start with '#' are comments, and
// "# time_unit=ms" among them declares the unit, as in CSV. The columns are
// the keys of the first record, in their order. A later record may leave
// keys out (absent values) but may not bring a value in a column of ours
// that the first record lacked, such as exec_<machine_type> or start: the
// columns must be known before the first record is returned, and ignoring
// them would silently lose data. The writer therefore writes null rather than
// leave a key out.
type jsonlTable struct {
	src     string
	lr      lineReader
	cols    []string
	index   map[string]int
	vals    []json.RawMessage
	obj     map[string]json.RawMessage
	line    int
	pending bool // the first record was read while opening
	late    map[string]bool
	unit    Unit
	hasUnit bool
	names   interners
	done    func()
}

func newJSONLTable(src string, r io.Reader, lim InflateLimit) (*jsonlTable, error) {
	br, _, done, err := openText(src, r, lim)
	if err != nil {
		return nil, err
	}
	t := &jsonlTable{src: src, done: done}
	t.lr.r = br
	if err := t.readFirst(); err != nil {
		done()
		return nil, err
	}
	return t, nil
}

// readFirst reads the comments and the first record, which fixes the columns.
func (t *jsonlTable) readFirst() error {
	for {
		b, err := t.lr.headLine(t.src, "no records")
		if err != nil {
			return err
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		if b[0] == '#' {
			u, ok, uerr := parseUnitComment(string(b))
			if uerr != nil {
				return &InputError{File: t.src, Line: t.lr.line, Column: "time_unit", Msg: "bad unit comment", Err: uerr}
			}
			if ok {
				t.unit, t.hasUnit = u, true
			}
			continue
		}
		if err := t.decode(b); err != nil {
			return err
		}
		t.cols = keyOrder(b, t.obj)
		t.index = make(map[string]int, len(t.cols))
		for i, c := range t.cols {
			t.index[c] = i
		}
		t.vals = make([]json.RawMessage, len(t.cols))
		t.fill()
		t.pending = true
		return nil
	}
}

func (t *jsonlTable) decode(b []byte) error {
	t.line = t.lr.line
	clear(t.obj)
	if t.obj == nil {
		t.obj = make(map[string]json.RawMessage)
	}
	if b[0] != '{' {
		return &InputError{File: t.src, Line: t.line, Msg: "is not a JSON object"}
	}
	if err := json.Unmarshal(b, &t.obj); err != nil {
		return &InputError{File: t.src, Line: t.line, Msg: "invalid JSON", Err: err}
	}
	return nil
}

// fill copies the current object's values into column order.
func (t *jsonlTable) fill() {
	for i, c := range t.cols {
		t.vals[i] = t.obj[c]
	}
}

func (t *jsonlTable) next() error {
	if t.pending {
		t.pending = false
		return nil
	}
	for {
		b, err := t.lr.readLine()
		if err == io.EOF {
			return io.EOF
		}
		if err != nil {
			return &InputError{File: t.src, Line: t.lr.line + 1, Msg: "read error", Err: err}
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		if unknown, ok := t.scan(b); ok {
			t.line = t.lr.line
			if unknown != "" {
				return t.lateColumn(unknown)
			}
			return nil
		}
		if err := t.decode(b); err != nil {
			return err
		}
		for k := range t.obj {
			if _, ok := t.index[k]; !ok && t.watched(k) && !isNull(t.obj[k]) {
				return t.lateColumn(k)
			}
		}
		t.fill()
		return nil
	}
}

func (t *jsonlTable) name() string            { return t.src }
func (t *jsonlTable) columns() []string       { return t.cols }
func (t *jsonlTable) headerPos() (int, int64) { return t.line, 0 }
func (t *jsonlTable) project([]int)           {}
func (t *jsonlTable) where() (int, int64)     { return t.line, 0 }
func (t *jsonlTable) fileUnit() (Unit, bool)  { return t.unit, t.hasUnit }
func (t *jsonlTable) columnUnit(int) Unit     { return "" }
func (t *jsonlTable) raw(col int) string      { return string(t.vals[col]) }
func (t *jsonlTable) close() error            { t.done(); return nil }

func isNull(v json.RawMessage) bool {
	return len(v) == 0 || string(v) == "null"
}

// text accepts JSON strings and numbers (type indexes are often numbers).
func (t *jsonlTable) text(col int) (string, cellStatus) {
	v := t.vals[col]
	switch {
	case isNull(v):
		return "", cellAbsent
	case v[0] == '"':
		if inner := v[1 : len(v)-1]; bytes.IndexByte(inner, '\\') < 0 { // no escapes: no copy
			inner = bytes.TrimSpace(inner)
			if len(inner) == 0 {
				return "", cellAbsent
			}
			return t.names.col(col).bytes(inner), cellOK
		}
		s, ok := unquote(v)
		if !ok {
			return "", cellNotText
		}
		s = trimSpace(s)
		if s == "" {
			return "", cellAbsent
		}
		return t.names.col(col).str(s), cellOK
	case v[0] == '-' || (v[0] >= '0' && v[0] <= '9'):
		return t.names.col(col).bytes(v), cellOK
	}
	return "", cellNotText
}

// number accepts JSON numbers and strings holding numbers.
func (t *jsonlTable) number(col int) (float64, cellStatus) {
	v := t.vals[col]
	switch {
	case isNull(v):
		return 0, cellAbsent
	case v[0] == '"':
		s, ok := unquote(v)
		if !ok {
			return 0, cellNotNumber
		}
		return parseNumber(s)
	case v[0] == '-' || (v[0] >= '0' && v[0] <= '9'):
		return parseNumber(unsafe.String(unsafe.SliceData(v), len(v))) // parseNumber keeps no reference
	}
	return 0, cellNotNumber
}

// unquote decodes a JSON string, with a fast path for strings without escapes.
func unquote(v json.RawMessage) (string, bool) {
	if len(v) >= 2 && bytes.IndexByte(v[1:len(v)-1], '\\') < 0 {
		return string(v[1 : len(v)-1]), true
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", false
	}
	return s, true
}

// keyOrder returns the keys of a JSON object in document order (a Go map
// forgets it), so that exec_<machine_type> columns keep the file's order.
// It falls back to sorted keys if the object cannot be walked.
func keyOrder(b []byte, obj map[string]json.RawMessage) []string {
	var keys []string
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err == nil && tok == json.Delim('{') {
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			k, ok := tok.(string)
			var skip json.RawMessage
			if err != nil || !ok || dec.Decode(&skip) != nil {
				keys = nil
				break
			}
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	if len(keys) != len(obj) {
		keys = keys[:0]
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
	}
	return keys
}

// watch names the columns the reader looked for and did not find in the
// first record; a later record that has one is an error rather than data
// silently dropped.
func (t *jsonlTable) watch(names []string) {
	t.late = make(map[string]bool, len(names))
	for _, n := range names {
		t.late[n] = true
	}
}

func (t *jsonlTable) watched(key string) bool {
	return strings.HasPrefix(key, execPrefix) || t.late[key]
}

func (t *jsonlTable) lateColumn(k string) error {
	return &InputError{File: t.src, Line: t.line, Column: k,
		Msg: "column is not in the first record (the first record fixes the columns; write null for absent values)"}
}

// scan is the fast path for the common shape of a record: a flat object whose
// keys need no unescaping. It sets the values of the known columns to slices
// of b (valid until the next line is read) and returns the first key that
// should have been in the first record (see watch). It reports ok=false for anything else, valid or not, and the
// caller then uses encoding/json, which also produces the error messages.
func (t *jsonlTable) scan(b []byte) (late string, ok bool) {
	clear(t.vals)
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return "", false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return "", skipSpace(b, i+1) == len(b)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return "", false
		}
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if b[j] == '\\' || b[j] < 0x20 {
				return "", false
			}
			j++
		}
		if j >= len(b) {
			return "", false
		}
		key := b[i+1 : j]
		i = skipSpace(b, j+1)
		if i >= len(b) || b[i] != ':' {
			return "", false
		}
		i = skipSpace(b, i+1)
		end, ok := skipScalar(b, i)
		if !ok {
			return "", false
		}
		if c, known := t.index[string(key)]; known {
			t.vals[c] = b[i:end]
		} else if late == "" && t.watched(string(key)) && !isNull(b[i:end]) {
			late = string(key)
		}
		i = skipSpace(b, end)
		if i >= len(b) {
			return "", false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return late, skipSpace(b, i+1) == len(b)
		default:
			return "", false
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipScalar returns the end of the string, number or literal at b[i];
// objects and arrays are left to encoding/json.
func skipScalar(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		for j := i + 1; j < len(b); j++ {
			switch {
			case b[j] == '\\':
				j++
			case b[j] == '"':
				return j + 1, true
			case b[j] < 0x20:
				return 0, false
			}
		}
		return 0, false
	case c == '-' || (c >= '0' && c <= '9'):
		j := i + 1
		for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] == '+' || b[j] == '-') {
			j++
		}
		return j, true
	}
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(b[i:], []byte(lit)) {
			return i + len(lit), true
		}
	}
	return 0, false
}
