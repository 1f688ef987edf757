package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"unsafe"

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
// type and stay required. Rows are written as parquet.Rows built field by field from their
// offsets in T: 1.1-1.9 µs a task row against 3.5 µs through the made type by reflection
// (parquet-go's typed writer of a struct without NULLs takes 0.2-0.3 µs). replay --out spends
// about 20 µs a task in all, and make bench-compare of BenchmarkReplayFile/csv/MM/out against
// the NaN-writing version found no difference beyond the shared machine's noise.
type nullable[T any] struct {
	typ    reflect.Type // the struct with *float64 fields
	schema *parquet.Schema
	fields []fieldPlan // T's fields, in order
}

// fieldPlan is where a field of T is and which column it fills.
type fieldPlan struct {
	offset uintptr
	kind   reflect.Kind
	column int
}

func newNullable[T any]() *nullable[T] {
	t := reflect.TypeFor[T]()
	fields := make([]reflect.StructField, t.NumField())
	for i := range fields {
		f := t.Field(i)
		if f.Type.Kind() == reflect.Float64 {
			f.Type = reflect.PointerTo(f.Type)
			f.Tag = reflect.StructTag(fmt.Sprintf(`parquet:"%s,optional"`, f.Tag.Get("parquet")))
		}
		fields[i] = f
	}
	typ := reflect.StructOf(fields)
	n := &nullable[T]{typ: typ, schema: parquet.SchemaOf(reflect.New(typ).Elem().Interface())}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		leaf, ok := n.schema.Lookup(name)
		switch f.Type.Kind() {
		case reflect.String, reflect.Float64, reflect.Int32, reflect.Int64, reflect.Bool:
		default:
			ok = false
		}
		if !ok {
			panic(fmt.Sprintf("report: field %s of %s: no column, or a kind (%s) nullable does not write", f.Name, t, f.Type.Kind()))
		}
		n.fields = append(n.fields, fieldPlan{offset: f.Offset, kind: f.Type.Kind(), column: leaf.ColumnIndex})
	}
	return n
}

// writer returns a Parquet writer of T's nullable schema.
func (n *nullable[T]) writer(w io.Writer, opts ...parquet.WriterOption) *nullableWriter[T] {
	opts = append([]parquet.WriterOption{n.schema, parquet.Compression(&parquet.Zstd)}, opts...)
	return &nullableWriter[T]{n: n, pw: parquet.NewGenericWriter[any](w, opts...)}
}

// nullableWriter writes rows of T through the nullable schema.
type nullableWriter[T any] struct {
	n    *nullable[T]
	pw   *parquet.GenericWriter[any]
	rows []parquet.Row
}

// Write writes rows.
func (w *nullableWriter[T]) Write(rows []T) (int, error) {
	for len(w.rows) < len(rows) {
		w.rows = append(w.rows, make(parquet.Row, len(w.n.fields)))
	}
	for i := range rows {
		p := unsafe.Pointer(&rows[i])
		row := w.rows[i]
		for _, f := range w.n.fields {
			at := unsafe.Add(p, f.offset)
			var v parquet.Value
			def := 0
			switch f.kind {
			case reflect.String:
				s := *(*string)(at)
				v = parquet.ByteArrayValue(unsafe.Slice(unsafe.StringData(s), len(s))) // copied by the writer
			case reflect.Float64:
				if x := *(*float64)(at); math.IsNaN(x) {
					v = parquet.NullValue()
				} else {
					v, def = parquet.DoubleValue(x), 1
				}
			case reflect.Int32:
				v = parquet.Int32Value(*(*int32)(at))
			case reflect.Int64:
				v = parquet.Int64Value(*(*int64)(at))
			case reflect.Bool:
				v = parquet.BooleanValue(*(*bool)(at))
			}
			row[f.column] = v.Level(0, def, f.column)
		}
	}
	return w.pw.WriteRows(w.rows[:len(rows)])
}

// Close writes the footer.
func (w *nullableWriter[T]) Close() error { return w.pw.Close() }

// read reads every row of pf into T: a NULL float as NaN, a float column the file lacks as NaN
// too, any other column it lacks as the zero value (as parquet-go's typed reader does; callers
// check the columns they need first).
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
		for j, f := range n.fields {
			v := d.Field(j)
			switch {
			case f.kind != reflect.Float64:
				out.Field(j).Set(v)
			case v.IsNil():
				out.Field(j).SetFloat(math.NaN())
			default:
				out.Field(j).SetFloat(v.Elem().Float())
			}
		}
		rows = append(rows, row)
	}
}
