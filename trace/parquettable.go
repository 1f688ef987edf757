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
// holds one page at a time, as typed slices (parquetpage.go) or, for pages of
// other shapes, as parquet.Values read in batches (values may point into the
// page's memory, so a buffer never outlives its page), and the cursors advance
// in lockstep, one row at a time. It never uses parquet-go's struct readers:
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
	// valuesOnly reads every page through parquet.Value, as the reader did before the
	// column path: the tests' reference.
	valuesOnly bool
}

const parquetBatch = 2048

// pqCursor reads one column's pages: typed (pqPage, parquetpage.go) when the page is of a
// shape the column path reads, else as parquet.Values in batches (the value path).
type pqCursor struct {
	col    int  // leaf column index in the file
	maxDef byte // the column's maximum definition level: a row below it is null
	pages  parquet.Pages
	typed  bool // the current page is read from pg, not buf
	pg     pqPage
	page   parquet.Page        // the typed page, released to parquet-go's pool when done
	vr     parquet.ValueReader // value path: nil between pages
	buf    []parquet.Value
	pos    int
	n      int
	values bool // the value path only (the tests' reference)
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
		t.cur[c] = &pqCursor{col: t.leaf[c].ColumnIndex, maxDef: byte(t.leaf[c].MaxDefinitionLevel), values: t.valuesOnly}
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
			c.release()
			p, err := c.pages.ReadPage()
			if err == io.EOF {
				return errShortColumn
			}
			if err != nil {
				return err
			}
			if c.typed = !c.values && c.pg.load(p, c.maxDef); c.typed {
				c.page = p
				if c.pg.rows > 0 {
					c.pos, c.n = 0, c.pg.rows
					return nil
				}
				continue // an empty page, as the value path skips it
			}
			if c.buf == nil {
				c.buf = make([]parquet.Value, parquetBatch)
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

// release hands the typed page back to parquet-go's buffer pool, for the next page to reuse
// instead of allocating: nothing read from it is kept (text is copied by the interner).
func (c *pqCursor) release() {
	if c.page != nil {
		c.pg.drop()
		parquet.Release(c.page)
		c.page, c.typed = nil, false
	}
}

func (t *parquetTable) closePages() {
	for _, c := range t.proj {
		if cu := t.cur[c]; cu.pages != nil {
			cu.release()
			cu.pages.Close()
			cu.pages, cu.vr, cu.typed = nil, nil, false
			cu.pg.names, cu.pg.namesFor = cu.pg.names[:0], nil // a new chunk, a new dictionary
			cu.pos, cu.n = 0, 0
		}
	}
}

func (t *parquetTable) number(col int) (float64, cellStatus) {
	c := t.cur[col]
	if !c.typed {
		return t.valueNumber(col, c.buf[c.pos])
	}
	pg := &c.pg
	k, ok := pg.value(c.pos)
	if !ok {
		return 0, cellAbsent
	}
	return t.pageNumber(col, pg, pg.index(k))
}

// pageNumber is number for value j of a typed page's slices.
func (t *parquetTable) pageNumber(col int, pg *pqPage, j int) (float64, cellStatus) {
	var x float64
	switch pg.kind {
	case parquet.Double:
		x = pg.f64[j]
	case parquet.Float:
		x = float64(pg.f32[j])
	case parquet.Int32:
		x = float64(pg.i32[j]) * t.decimal[col]
	case parquet.Int64:
		x = float64(pg.i64[j]) * t.decimal[col]
	default: // ByteArray
		if t.decimal[col] != 1 { // a binary DECIMAL, not text
			return 0, cellNotNumber
		}
		return parseNumberBytes(pg.bytes(j))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, cellNotFinite
	}
	return x, cellOK
}

// valueNumber is number for a cell read through parquet.Value.
func (t *parquetTable) valueNumber(col int, v parquet.Value) (float64, cellStatus) {
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
	c := t.cur[col]
	if !c.typed {
		return t.valueText(col, c.buf[c.pos])
	}
	pg := &c.pg
	k, ok := pg.value(c.pos)
	if !ok {
		return "", cellAbsent
	}
	if pg.dict == nil {
		return t.pageText(col, pg, k)
	}
	j := int(pg.dict[k])
	if j >= len(pg.names) {
		pg.names = append(pg.names, make([]pqName, j+1-len(pg.names))...)
	}
	nm := &pg.names[j]
	if !nm.done {
		nm.s, nm.st = t.pageText(col, pg, j)
		nm.done = true
	}
	return nm.s, nm.st
}

// pageText is text for value j of a typed page's slices.
func (t *parquetTable) pageText(col int, pg *pqPage, j int) (string, cellStatus) {
	switch pg.kind {
	case parquet.ByteArray:
		return t.bytesText(col, pg.bytes(j))
	case parquet.Int32:
		return t.intText(col, int64(pg.i32[j]))
	case parquet.Int64:
		return t.intText(col, pg.i64[j])
	}
	return "", cellNotText
}

// valueText is text for a cell read through parquet.Value.
func (t *parquetTable) valueText(col int, v parquet.Value) (string, cellStatus) {
	if v.IsNull() {
		return "", cellAbsent
	}
	switch v.Kind() {
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return t.bytesText(col, v.ByteArray())
	case parquet.Int32:
		return t.intText(col, int64(v.Int32()))
	case parquet.Int64:
		return t.intText(col, v.Int64())
	}
	return "", cellNotText
}

func (t *parquetTable) bytesText(col int, b []byte) (string, cellStatus) {
	if n := len(b); n > 0 && (b[0] <= ' ' || b[n-1] <= ' ') {
		b = bytes.TrimSpace(b)
	}
	if len(b) == 0 {
		return "", cellAbsent
	}
	return t.names.col(col).bytes(b), cellOK
}

func (t *parquetTable) intText(col int, x int64) (string, cellStatus) {
	t.num = strconv.AppendInt(t.num[:0], x, 10)
	return t.names.col(col).bytes(t.num), cellOK
}

func (t *parquetTable) raw(col int) string {
	c := t.cur[col]
	if c.typed {
		return c.pg.raw(c.pos)
	}
	return valueRaw(c.buf[c.pos])
}

// raw is the text of row i as valueRaw prints the parquet.Value parquet-go reads for it.
func (pg *pqPage) raw(i int) string {
	k, ok := pg.value(i)
	if !ok {
		return "null"
	}
	j := pg.index(k)
	switch pg.kind {
	case parquet.Double:
		return valueRaw(parquet.DoubleValue(pg.f64[j]))
	case parquet.Float:
		return valueRaw(parquet.FloatValue(pg.f32[j]))
	case parquet.Int32:
		return valueRaw(parquet.Int32Value(pg.i32[j]))
	case parquet.Int64:
		return valueRaw(parquet.Int64Value(pg.i64[j]))
	}
	return string(pg.bytes(j))
}

func valueRaw(v parquet.Value) string {
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
