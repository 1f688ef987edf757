package trace

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
)

// csvWriter writes RFC 4180 CSV after a "# time_unit=" comment line.
type csvWriter struct {
	w    *bufio.Writer
	cols []column
	b    []byte
}

func newCSVWriter(w io.Writer) *csvWriter {
	return &csvWriter{w: bufio.NewWriterSize(w, 64<<10)}
}

func (c *csvWriter) header(cols []column, unit Unit) error {
	c.cols = cols
	b := append(c.b[:0], "# time_unit="...)
	b = append(b, unit...)
	b = append(b, '\n')
	for i, col := range cols {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCSVField(b, col.name)
	}
	b = append(b, '\n')
	c.b = b
	_, err := c.w.Write(b)
	return err
}

func (c *csvWriter) row(cells []cell) error {
	b := c.b[:0]
	for i, v := range cells {
		if i > 0 {
			b = append(b, ',')
		}
		if v.null {
			continue
		}
		switch c.cols[i].kind {
		case textCell:
			b = appendCSVField(b, v.s)
		case numberCell:
			b = strconv.AppendFloat(b, v.f, 'f', -1, 64)
		case intCell:
			b = strconv.AppendInt(b, v.i, 10)
		}
	}
	b = append(b, '\n')
	c.b = b
	_, err := c.w.Write(b)
	return err
}

func (c *csvWriter) finish() error { return c.w.Flush() }

// appendCSVField quotes a field when a reader could misread it: separators,
// quotes, line breaks, surrounding spaces (the reader trims leading space) or
// a leading '#'.
func appendCSVField(b []byte, s string) []byte {
	if s == "" || (!strings.ContainsAny(s, ",\"\r\n") && s[0] != ' ' && s[0] != '\t' && s[0] != '#' &&
		s[len(s)-1] != ' ' && s[len(s)-1] != '\t') {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// jsonlWriter writes one object per line after a "# time_unit=" comment line.
// Null cells are written as null rather than left out, so that every record
// has every key (the reader takes the columns from the first record).
type jsonlWriter struct {
	w    *bufio.Writer
	cols []column
	keys [][]byte
	b    []byte
}

func newJSONLWriter(w io.Writer) *jsonlWriter {
	return &jsonlWriter{w: bufio.NewWriterSize(w, 64<<10)}
}

func (j *jsonlWriter) header(cols []column, unit Unit) error {
	j.cols = cols
	j.keys = make([][]byte, len(cols))
	for i, c := range cols {
		j.keys[i] = appendJSONString(nil, c.name)
	}
	_, err := j.w.WriteString("# time_unit=" + string(unit) + "\n")
	return err
}

func (j *jsonlWriter) row(cells []cell) error {
	b := append(j.b[:0], '{')
	first := true
	for i, v := range cells {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, j.keys[i]...)
		b = append(b, ':')
		if v.null {
			b = append(b, "null"...)
			continue
		}
		switch j.cols[i].kind {
		case textCell:
			b = appendJSONString(b, v.s)
		case numberCell:
			b = strconv.AppendFloat(b, v.f, 'f', -1, 64)
		case intCell:
			b = strconv.AppendInt(b, v.i, 10)
		}
	}
	b = append(b, '}', '\n')
	j.b = b
	_, err := j.w.Write(b)
	return err
}

func (j *jsonlWriter) finish() error { return j.w.Flush() }

// appendJSONString quotes s as a JSON string, with a fast path for plain ASCII.
func appendJSONString(b []byte, s string) []byte {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			plain = false
			break
		}
	}
	if plain {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

// parquetWriter writes zstd-compressed Parquet with the unit in the
// key-value metadata. Rows are buffered in small batches and the row group
// size is bounded, so memory stays flat however many rows are written.
type parquetWriter struct {
	w            io.Writer
	rowGroupRows int64
	pw           *parquet.GenericWriter[any]
	cols         []column
	index        []int // output column -> parquet leaf column index
	rows         []parquet.Row
	n            int
}

const parquetWriteBatch = 1024

func (p *parquetWriter) header(cols []column, unit Unit) error {
	p.cols = cols
	group := make(orderedGroup, 0, len(cols))
	for _, c := range cols {
		var node parquet.Node
		switch c.kind {
		case textCell:
			node = parquet.String()
			if c.dict {
				node = parquet.Encoded(node, &parquet.RLEDictionary)
			}
		case numberCell:
			node = parquet.Leaf(parquet.DoubleType)
		case intCell:
			node = parquet.Int(64)
		}
		if c.optional {
			node = parquet.Optional(node)
		}
		group = append(group, namedNode{Node: node, name: c.name})
	}
	schema := parquet.NewSchema("trace", group)
	p.index = make([]int, len(cols))
	for i, c := range cols {
		leaf, _ := schema.Lookup(c.name)
		p.index[i] = leaf.ColumnIndex
	}
	p.pw = parquet.NewGenericWriter[any](p.w, schema,
		parquet.Compression(&parquet.Zstd),
		parquet.MaxRowsPerRowGroup(p.rowGroupRows),
		parquet.KeyValueMetadata("time_unit", string(unit)),
		parquet.KeyValueMetadata("writer", "hcreplay/trace"))
	p.rows = make([]parquet.Row, parquetWriteBatch)
	for i := range p.rows {
		p.rows[i] = make(parquet.Row, len(cols))
	}
	return nil
}

func (p *parquetWriter) row(cells []cell) error {
	r := p.rows[p.n]
	for i, v := range cells {
		col := p.cols[i]
		def := 0
		if col.optional {
			def = 1
		}
		var val parquet.Value
		switch {
		case v.null:
			val, def = parquet.NullValue(), 0
		case col.kind == textCell:
			val = parquet.ByteArrayValue([]byte(v.s))
		case col.kind == numberCell:
			val = parquet.DoubleValue(v.f)
		default:
			val = parquet.Int64Value(v.i)
		}
		r[p.index[i]] = val.Level(0, def, p.index[i])
	}
	p.n++
	if p.n == len(p.rows) {
		return p.flush()
	}
	return nil
}

func (p *parquetWriter) flush() error {
	if p.n == 0 {
		return nil
	}
	_, err := p.pw.WriteRows(p.rows[:p.n])
	p.n = 0
	return err
}

func (p *parquetWriter) finish() error {
	if err := p.flush(); err != nil {
		return err
	}
	return p.pw.Close()
}

// orderedGroup is a Parquet group node that keeps its fields in the order
// given; parquet.Group is a map and sorts them by name, which would reorder
// the exec_<machine_type> columns of a trace.
type orderedGroup []parquet.Field

type namedNode struct {
	parquet.Node
	name string
}

func (n namedNode) Name() string                           { return n.name }
func (n namedNode) Value(base reflect.Value) reflect.Value { return reflect.Value{} }

func (g orderedGroup) ID() int                     { return 0 }
func (g orderedGroup) String() string              { return fmt.Sprintf("group(%d fields)", len(g)) }
func (g orderedGroup) Type() parquet.Type          { return parquet.Group{}.Type() }
func (g orderedGroup) Optional() bool              { return false }
func (g orderedGroup) Repeated() bool              { return false }
func (g orderedGroup) Required() bool              { return true }
func (g orderedGroup) Leaf() bool                  { return false }
func (g orderedGroup) Fields() []parquet.Field     { return g }
func (g orderedGroup) Encoding() encoding.Encoding { return nil }
func (g orderedGroup) Compression() compress.Codec { return nil }
func (g orderedGroup) GoType() reflect.Type        { return reflect.TypeFor[map[string]any]() }
