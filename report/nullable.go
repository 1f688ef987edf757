package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// FileMeta is what every file the tool writes records about itself: the unit of its times and
// the version of the tool that wrote it. Parquet files carry it as key-value metadata
// (time_unit, tool, tool_version), JSON files as fields, CSV files as a first comment line.
type FileMeta struct {
	TimeUnit string // ms, s, ...; empty when the file holds no times
	Version  string // hcreplay's version, as --version prints it
}

// Tool is the name files record as their writer.
const Tool = "hcreplay"

// options are the Parquet key-value metadata of m.
func (m FileMeta) options() []parquet.WriterOption {
	opts := []parquet.WriterOption{parquet.KeyValueMetadata("tool", Tool)}
	if m.TimeUnit != "" {
		opts = append(opts, parquet.KeyValueMetadata("time_unit", m.TimeUnit))
	}
	if m.Version != "" {
		opts = append(opts, parquet.KeyValueMetadata("tool_version", m.Version))
	}
	return opts
}

// CSVComment is the first line of a CSV file the tool writes: "# time_unit=ms tool=hcreplay
// tool_version=v1.2.0". Readers skip it with pandas' comment="#" or DuckDB's skip=1.
func (m FileMeta) CSVComment() string {
	var b strings.Builder
	b.WriteString("#")
	if m.TimeUnit != "" {
		b.WriteString(" time_unit=" + m.TimeUnit)
	}
	b.WriteString(" tool=" + Tool)
	if m.Version != "" {
		b.WriteString(" tool_version=" + m.Version)
	}
	return b.String() + "\n"
}

// nullable writes and reads Parquet rows of a struct type T whose float64 fields are optional
// columns: NaN, which the metrics use for "nothing to measure" and the task rows for "does not
// apply", is written as NULL and read back as NaN. A NaN in a file would poison every aggregate
// DuckDB or pandas computes over the column (avg is NaN); a NULL is left out, as SQL means it.
//
// The schema is that of T, in T's field order with T's tags, except that each float64 field is
// a pointer marked optional: a type made once with reflect.StructOf. Other fields keep their
// type and stay required.
type nullable[T any] struct {
	typ    reflect.Type // the struct with *float64 fields
	schema *parquet.Schema
	floats []bool // per field of T: written as optional
}

func newNullable[T any]() *nullable[T] {
	t := reflect.TypeFor[T]()
	fields := make([]reflect.StructField, t.NumField())
	floats := make([]bool, t.NumField())
	for i := range fields {
		f := t.Field(i)
		if f.Type.Kind() == reflect.Float64 {
			floats[i] = true
			f.Type = reflect.PointerTo(f.Type)
			f.Tag = reflect.StructTag(fmt.Sprintf(`parquet:"%s,optional"`, f.Tag.Get("parquet")))
		}
		fields[i] = f
	}
	typ := reflect.StructOf(fields)
	return &nullable[T]{typ: typ, schema: parquet.SchemaOf(reflect.New(typ).Elem().Interface()), floats: floats}
}

// writer returns a Parquet writer of T's nullable schema.
func (n *nullable[T]) writer(w io.Writer, opts ...parquet.WriterOption) *nullableWriter[T] {
	opts = append([]parquet.WriterOption{n.schema, parquet.Compression(&parquet.Zstd)}, opts...)
	return &nullableWriter[T]{n: n, pw: parquet.NewGenericWriter[any](w, opts...)}
}

// nullableWriter writes rows of T through the nullable schema.
type nullableWriter[T any] struct {
	n   *nullable[T]
	pw  *parquet.GenericWriter[any]
	buf []any
}

// Write writes rows. The rows it is given are not kept: the pointers of the optional fields
// point into rows only while Write runs.
func (w *nullableWriter[T]) Write(rows []T) (int, error) {
	w.buf = w.buf[:0]
	for i := range rows {
		src := reflect.ValueOf(&rows[i]).Elem()
		dst := reflect.New(w.n.typ)
		d := dst.Elem()
		for j, float := range w.n.floats {
			f := src.Field(j)
			switch {
			case !float:
				d.Field(j).Set(f)
			case !math.IsNaN(f.Float()):
				d.Field(j).Set(f.Addr())
			}
		}
		w.buf = append(w.buf, dst.Interface())
	}
	n, err := w.pw.Write(w.buf)
	clear(w.buf)
	return n, err
}

// Close writes the footer.
func (w *nullableWriter[T]) Close() error { return w.pw.Close() }

// read reads every row of pf into T: a NULL float as NaN, a column the file lacks as T's zero
// value (as parquet-go's typed reader does; callers check the columns they need first).
func (n *nullable[T]) read(pf *parquet.File) ([]T, error) {
	r := parquet.NewReader(pf, n.schema)
	defer r.Close()
	rows := make([]T, 0, pf.NumRows())
	dst := reflect.New(n.typ)
	for {
		dst.Elem().SetZero()
		err := r.Read(dst.Interface())
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		var row T
		out := reflect.ValueOf(&row).Elem()
		d := dst.Elem()
		for j, float := range n.floats {
			f := d.Field(j)
			switch {
			case !float:
				out.Field(j).Set(f)
			case f.IsNil():
				out.Field(j).SetFloat(math.NaN())
			default:
				out.Field(j).SetFloat(f.Elem().Float())
			}
		}
		rows = append(rows, row)
	}
}
