package trace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// parquetTable reads the flat top-level columns of a Parquet file, only the
// ones the reader asks for. Each projected column has its own cursor that
// buffers values from one page at a time (values may point into the page's
// memory, so a buffer never outlives its page), and the cursors advance in
// lockstep, one row at a time. It never uses parquet-go's struct readers:
// those zero-fill columns that are missing or misnamed, and the
// io.ReaderAt constructors panic on files that are not Parquet. Anything the
// library still panics on is turned into an *InputError.
//
// The file's time unit is the key-value metadata entry "time_unit"; a column
// with a TIMESTAMP logical type carries its own unit.
type parquetTable struct {
	src     string
	f       *parquet.File
	ra      io.ReaderAt
	size    int64
	cols    []string
	leaf    []parquet.LeafColumn
	units   []Unit
	decimal []float64   // 10^-scale for integer DECIMAL columns, else 1
	cur     []*pqCursor // by column; nil when not projected
	cursors []*pqCursor // the projected ones
	proj    []int
	rg      int   // current row group; -1 before the first
	rgLeft  int64 // rows of the current row group not yet read
	row     int64 // 1-based number of the current row
	unit    Unit
	hasUnit bool
	names   interners
	num     []byte
}

const parquetBatch = 2048

type pqCursor struct {
	col   int // leaf column index in the file
	pages parquet.Pages
	vr    parquet.ValueReader // nil between pages
	buf   []parquet.Value
	pos   int
	n     int
}

func newParquetTable(src string, r io.ReaderAt, size int64) (t *parquetTable, err error) {
	defer recoverInto(&err, src, 0)
	if size < 12 {
		return nil, &InputError{File: src, Msg: fmt.Sprintf("not a Parquet file (only %d bytes)", size)}
	}
	if err := checkFooter(r, size); err != nil {
		return nil, &InputError{File: src, Msg: "not a Parquet file, or a truncated one", Err: err}
	}
	pf, err := parquet.OpenFile(r, size, parquet.SkipBloomFilters(true), parquet.SkipPageIndex(true))
	if err != nil {
		return nil, &InputError{File: src, Msg: "not a Parquet file, or a truncated one", Err: err}
	}
	t = &parquetTable{src: src, f: pf, ra: r, size: size, rg: -1}
	if v, ok := pf.Lookup("time_unit"); ok {
		u, err := ParseUnit(v)
		if err != nil {
			return nil, &InputError{File: src, Column: "time_unit", Value: v, HasValue: true,
				Msg: "is not a time unit (key-value metadata)"}
		}
		t.unit, t.hasUnit = u, true
	}
	schema := pf.Schema()
	for _, fld := range schema.Fields() {
		if !fld.Leaf() {
			continue // nested groups are not records of ours
		}
		leaf, ok := schema.Lookup(fld.Name())
		if !ok || leaf.MaxRepetitionLevel > 0 {
			continue // repeated (list) columns cannot hold one value per record
		}
		t.cols = append(t.cols, fld.Name())
		t.leaf = append(t.leaf, leaf)
		t.units = append(t.units, timestampUnit(leaf.Node))
		t.decimal = append(t.decimal, decimalFactor(leaf.Node))
	}
	if pf.NumRows() == 0 {
		return nil, &InputError{File: src, Msg: "empty file: no rows"}
	}
	return t, nil
}

// recoverInto turns a panic inside parquet-go into an *InputError: bad input
// must never crash the program.
func recoverInto(err *error, src string, row int64) {
	if p := recover(); p != nil {
		*err = &InputError{File: src, Row: row, Msg: fmt.Sprintf("corrupt Parquet file (%v)", p)}
	}
}

// decimalFactor returns the factor that turns the unscaled integers of a
// DECIMAL column into numbers; reading them raw would be silently wrong.
func decimalFactor(n parquet.Node) float64 {
	if lt := n.Type().LogicalType(); lt != nil {
		if d, ok := lt.Value.(*format.DecimalType); ok {
			return math.Pow(10, -float64(d.Scale))
		}
	}
	return 1
}

func timestampUnit(n parquet.Node) Unit {
	lt := n.Type().LogicalType()
	if lt == nil {
		return ""
	}
	ts, ok := lt.Value.(*format.TimestampType)
	if !ok || ts.Unit.Value == nil {
		return ""
	}
	switch ts.Unit.Value.(type) {
	case *format.MilliSeconds:
		return Millisecond
	case *format.MicroSeconds:
		return Microsecond
	case *format.NanoSeconds:
		return Nanosecond
	}
	return ""
}

func (t *parquetTable) project(cols []int) {
	t.proj = cols
	t.cur = make([]*pqCursor, len(t.cols))
	for _, c := range cols {
		t.cur[c] = &pqCursor{col: t.leaf[c].ColumnIndex, buf: make([]parquet.Value, parquetBatch)}
		t.cursors = append(t.cursors, t.cur[c])
	}
}

func (t *parquetTable) next() error {
	if t.rgLeft > 0 && t.buffered() { // the common case: no page to read
		t.row++
		t.rgLeft--
		for _, c := range t.cursors {
			c.pos++
		}
		return nil
	}
	return t.nextSlow()
}

// buffered reports whether every cursor holds its next value already.
func (t *parquetTable) buffered() bool {
	for _, c := range t.cursors {
		if c.pos+1 >= c.n {
			return false
		}
	}
	return true
}

// nextSlow moves to the next row when a page or row group boundary is
// crossed; parquet-go runs only here, under a recover.
func (t *parquetTable) nextSlow() (err error) {
	defer recoverInto(&err, t.src, t.row+1)
	for t.rgLeft == 0 {
		if err := t.nextRowGroup(); err != nil {
			return err
		}
	}
	t.row++
	t.rgLeft--
	for _, c := range t.proj {
		if err := t.cur[c].advance(); err != nil {
			return &InputError{File: t.src, Row: t.row, Column: t.cols[c], Msg: "corrupt or truncated Parquet file", Err: err}
		}
	}
	return nil
}

func (t *parquetTable) nextRowGroup() error {
	t.closePages()
	rgs := t.f.RowGroups()
	t.rg++
	if t.rg >= len(rgs) {
		return io.EOF
	}
	t.rgLeft = rgs[t.rg].NumRows()
	if err := t.checkRowGroup(t.rg); err != nil {
		return &InputError{File: t.src, Row: t.row + 1, Msg: "corrupt Parquet file", Err: err}
	}
	chunks := rgs[t.rg].ColumnChunks()
	for _, c := range t.proj {
		cu := t.cur[c]
		if cu.col >= len(chunks) {
			return &InputError{File: t.src, Row: t.row + 1, Column: t.cols[c], Msg: "corrupt Parquet file: row group lacks the column"}
		}
		cu.pages = chunks[cu.col].Pages()
	}
	return nil
}

var errShortColumn = errors.New("column chunk has fewer values than the row group has rows")

// advance moves to the next value, reading the next page when the buffer is
// used up.
func (c *pqCursor) advance() error {
	if c.pos++; c.pos < c.n {
		return nil
	}
	for stalls := 0; ; {
		if c.vr == nil {
			p, err := c.pages.ReadPage()
			if err == io.EOF {
				return errShortColumn
			}
			if err != nil {
				return err
			}
			c.vr = p.Values()
		}
		m, err := c.vr.ReadValues(c.buf)
		if err != nil && err != io.EOF {
			return err
		}
		if err == io.EOF {
			c.vr = nil // the next refill reads a new page, after these are used
		}
		if m > 0 {
			c.pos, c.n = 0, m
			return nil
		}
		if err == nil {
			if stalls++; stalls > 2 {
				return errShortColumn
			}
		}
	}
}

func (t *parquetTable) closePages() {
	for _, c := range t.proj {
		if cu := t.cur[c]; cu.pages != nil {
			cu.pages.Close()
			cu.pages, cu.vr = nil, nil
			cu.pos, cu.n = 0, 0
		}
	}
}

func (t *parquetTable) value(col int) parquet.Value {
	c := t.cur[col]
	return c.buf[c.pos]
}

func (t *parquetTable) number(col int) (float64, cellStatus) {
	v := t.value(col)
	if v.IsNull() {
		return 0, cellAbsent
	}
	var x float64
	switch v.Kind() {
	case parquet.Double:
		x = v.Double()
	case parquet.Float:
		x = float64(v.Float())
	case parquet.Int32:
		x = float64(v.Int32()) * t.decimal[col]
	case parquet.Int64:
		x = float64(v.Int64()) * t.decimal[col]
	case parquet.ByteArray, parquet.FixedLenByteArray:
		if t.decimal[col] != 1 { // a binary DECIMAL, not text
			return 0, cellNotNumber
		}
		return parseNumber(string(v.ByteArray()))
	default:
		return 0, cellNotNumber
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, cellNotFinite
	}
	return x, cellOK
}

func (t *parquetTable) text(col int) (string, cellStatus) {
	v := t.value(col)
	if v.IsNull() {
		return "", cellAbsent
	}
	switch v.Kind() {
	case parquet.ByteArray, parquet.FixedLenByteArray:
		b := v.ByteArray()
		if n := len(b); n > 0 && (b[0] <= ' ' || b[n-1] <= ' ') {
			b = bytes.TrimSpace(b)
		}
		if len(b) == 0 {
			return "", cellAbsent
		}
		return t.names.col(col).bytes(b), cellOK
	case parquet.Int32:
		t.num = strconv.AppendInt(t.num[:0], int64(v.Int32()), 10)
		return t.names.col(col).bytes(t.num), cellOK
	case parquet.Int64:
		t.num = strconv.AppendInt(t.num[:0], v.Int64(), 10)
		return t.names.col(col).bytes(t.num), cellOK
	}
	return "", cellNotText
}

func (t *parquetTable) raw(col int) string {
	v := t.value(col)
	switch {
	case v.IsNull():
		return "null"
	case v.Kind() == parquet.ByteArray || v.Kind() == parquet.FixedLenByteArray:
		return string(v.ByteArray())
	case v.Kind() == parquet.Double:
		return strconv.FormatFloat(v.Double(), 'g', -1, 64)
	case v.Kind() == parquet.Float:
		return strconv.FormatFloat(float64(v.Float()), 'g', -1, 32)
	}
	return v.String()
}

func (t *parquetTable) name() string            { return t.src }
func (t *parquetTable) columns() []string       { return t.cols }
func (t *parquetTable) headerPos() (int, int64) { return 0, 0 }
func (t *parquetTable) where() (int, int64)     { return 0, t.row }
func (t *parquetTable) fileUnit() (Unit, bool)  { return t.unit, t.hasUnit }
func (t *parquetTable) columnUnit(col int) Unit { return t.units[col] }
func (t *parquetTable) close() error            { t.closePages(); return nil }
