package trace

import (
	"bufio"
	"encoding/binary"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// table is one input file seen as a sequence of records with named fields.
// Each format implements it; the log and task readers on top of it do the
// mapping, unit conversion and validation once for all formats.
type table interface {
	// name is the source name used in error messages.
	name() string
	// columns lists the file's column names in file order.
	columns() []string
	// headerPos is where a missing-column error points (the header line of
	// a CSV file; zero when the format has no header line).
	headerPos() (line int, row int64)
	// project announces the columns the reader will ask for, so that columnar
	// formats read nothing else. It is called once, before the first next.
	project(cols []int)
	// next advances to the next record and returns io.EOF after the last.
	// Structural problems (bad quoting, a line that is not a JSON object, a
	// truncated file) come back as *InputError.
	next() error
	// where returns the position of the current record.
	where() (line int, row int64)
	// text returns column col of the current record as a string.
	text(col int) (string, cellStatus)
	// number returns column col of the current record as a finite number.
	number(col int) (float64, cellStatus)
	// raw returns column col of the current record as written, for messages.
	raw(col int) string
	// fileUnit returns the time unit the file declares, if any.
	fileUnit() (Unit, bool)
	// columnUnit returns a unit that a column's own type declares (Parquet
	// timestamps); "" when none.
	columnUnit(col int) Unit
	close() error
}

type cellStatus uint8

const (
	cellOK        cellStatus = iota
	cellAbsent               // empty cell, null, or missing key
	cellNotNumber            // cannot be read as a number
	cellNotFinite            // NaN or ±Inf
	cellNotText              // a JSON true/false/object/array where a name was expected
)

// parseNumber reads a decimal float the way every text format here writes it.
// strconv accepts ".97" (HCW19 files start floats with a dot) as well as
// exponents; NaN and infinities are refused because no time can be either.
func parseNumber(s string) (float64, cellStatus) {
	s = trimSpace(s)
	if s == "" {
		return 0, cellAbsent
	}
	if hexOrUnderscore(s) {
		// Go reads 0x1p4 as 16 and 1_0 as 10, but spreadsheets, pandas and R read them as text
		// or not at all: a file with them means something else elsewhere, so it is refused
		// (issue 49; docs/limits.md).
		return 0, cellNotNumber
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, cellNotFinite
		}
		return 0, cellNotNumber
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, cellNotFinite
	}
	return v, cellOK
}

// hexOrUnderscore reports whether s has an x, X or _: a hexadecimal float or digits separated
// by underscores, which strconv.ParseFloat reads and other tools do not.
func hexOrUnderscore(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '_' || c|0x20 == 'x' {
			return true
		}
	}
	return false
}

// trimSpace is strings.TrimSpace with a fast path for the common case of no
// surrounding space.
func trimSpace(s string) string {
	if s == "" || (s[0] > ' ' && s[len(s)-1] > ' ') {
		return s
	}
	return strings.TrimSpace(s)
}

// parseUnitComment reads "# time_unit=ms" (also "#time_unit: ms"); other
// comments are ignored.
func parseUnitComment(line string) (Unit, bool, error) {
	s := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "#"))
	key, val, ok := strings.Cut(s, "=")
	if !ok {
		key, val, ok = strings.Cut(s, ":")
	}
	if !ok || strings.TrimSpace(key) != "time_unit" {
		return "", false, nil
	}
	u, err := ParseUnit(val)
	if err != nil {
		return "", false, err
	}
	return u, true, nil
}

// interner shares the backing memory of repeated names (task and machine
// types), so that a reader keeps no reference to its input buffers and a
// million records of twelve types hold twelve strings. Columns of unique
// values (task ids) would only fill the map, so an interner that misses on
// most of its first lookups turns itself off and just copies; it also stops
// growing at a bound.
type interner struct {
	m       map[string]string
	lookups int
	misses  int
	off     bool
	recent  *[256]string // by nameSlot of the content; see bytes
}

// nameSlot places a name in interner.recent by a hash of its length and its first and last
// eight bytes: for the short names of task and machine types, a few instructions against the
// map's hash and probe (a CSV log looks up two names per record, issue 50). A name whose
// slot holds another name goes to the map and takes the slot.
func nameSlot(b []byte) uint8 {
	h := uint64(len(b))
	if len(b) >= 8 {
		h ^= binary.LittleEndian.Uint64(b) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[len(b)-8:]), 29)
	} else {
		for _, c := range b {
			h = h<<8 | uint64(c)
		}
	}
	return uint8((h * 0x9e3779b97f4a7c15) >> 56)
}

const (
	internLimit = 1 << 14
	internProbe = 1 << 12
)

func (in *interner) str(s string) string {
	if in.off {
		return strings.Clone(s)
	}
	if v, ok := in.m[s]; ok {
		in.lookups++
		return v
	}
	c := strings.Clone(s)
	in.add(c)
	return c
}

func (in *interner) bytes(b []byte) string {
	if in.off || len(b) == 0 {
		return string(b)
	}
	if in.recent == nil {
		in.recent = new([256]string)
	}
	r := &in.recent[nameSlot(b)]
	if *r == string(b) {
		in.lookups++
		return *r
	}
	v, ok := in.m[string(b)] // no allocation for the lookup
	if ok {
		in.lookups++
	} else {
		v = string(b)
		in.add(v)
	}
	*r = v
	return v
}

func (in *interner) add(s string) {
	in.lookups++
	in.misses++
	if in.lookups >= internProbe && 2*in.misses > in.lookups {
		in.off, in.m = true, nil
		return
	}
	if in.m == nil {
		in.m = make(map[string]string)
	}
	if len(in.m) < internLimit {
		in.m[s] = s
	}
}

// interners keeps one interner per column.
type interners []interner

func (is *interners) col(c int) *interner {
	for len(*is) <= c {
		*is = append(*is, interner{})
	}
	return &(*is)[c]
}

// openText decompresses (by magic bytes) and buffers a text source for the CSV, JSON Lines and
// .dat tables, stopping at a line longer than maxLine and at what lim does not allow to inflate.
// done releases the decompressor; the capReader bounds a CSV record (capReader.mark).
func openText(src string, r io.Reader, lim InflateLimit) (*bufio.Reader, *capReader, func(), error) {
	size := bufferFor(r)
	in, done, err := decompress(r, lim, size)
	if err != nil {
		return nil, nil, nil, &InputError{File: src, Msg: "cannot decompress", Err: err}
	}
	if _, compressed := in.(*inflateGuard); compressed {
		size = readAhead // the file's size says nothing of what it inflates to
	}
	c := &capReader{r: in}
	return bufio.NewReaderSize(c, size), c, done, nil
}

// headLine reads the next line while looking for a file's header or first record: the end of
// the file is the error "empty file: " + what, a read error names the line.
func (lr *lineReader) headLine(src, what string) ([]byte, error) {
	b, err := lr.readLine()
	if err == io.EOF {
		return nil, &InputError{File: src, Line: lr.line + 1, Msg: "empty file: " + what}
	}
	if err != nil {
		return nil, &InputError{File: src, Line: lr.line + 1, Msg: "read error", Err: err}
	}
	return b, nil
}

// lineReader reads physical lines of any length and counts them.
type lineReader struct {
	r    interface{ ReadSlice(byte) ([]byte, error) }
	buf  []byte
	line int
}

// readLine returns the next line without its terminator; io.EOF after the last.
// The slice is valid until the next call.
func (lr *lineReader) readLine() ([]byte, error) {
	b, err := lr.r.ReadSlice('\n')
	switch {
	case err == nil || (err == io.EOF && len(b) > 0):
		lr.line++
		return trimEOL(b), nil
	case err != bufio.ErrBufferFull:
		return nil, err
	}
	lr.buf = append(lr.buf[:0], b...) // a line longer than the buffer
	for err == bufio.ErrBufferFull {
		if len(lr.buf) > maxLine {
			return nil, errLineTooLong
		}
		b, err = lr.r.ReadSlice('\n')
		lr.buf = append(lr.buf, b...)
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	lr.line++
	return trimEOL(lr.buf), nil
}

const maxLine = 64 << 20

var errLineTooLong = &lineError{"line longer than 64 MiB"}

type lineError struct{ s string }

func (e *lineError) Error() string { return e.s }

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}
