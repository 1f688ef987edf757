package trace

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/hcreplay/hcreplay/internal/natural"
)

// ReadOptions controls how logs and traces are read. The zero value reads a
// file in the format its extension names, with the standard column names, in
// milliseconds.
type ReadOptions struct {
	// Format overrides the format the file name implies.
	Format Format
	// Columns maps our field names to the file's column names, for files
	// whose columns are named differently: {"task_type": "app",
	// "exec_time": "runtime_ms", "exec_gpu": "gpu_ms"}. A mapped column must
	// exist. ParseColumnMap builds the map from "a=b" flags.
	Columns map[string]string
	// FileUnit is the unit of the file's times when the file does not
	// declare one (CSV/JSONL "# time_unit=" comment, Parquet "time_unit"
	// metadata). Empty means ms. If the file declares a different unit, the
	// read fails rather than guess which one is right.
	FileUnit Unit
	// Unit is the unit of the values returned; empty means ms.
	Unit Unit
	// Strict turns arrivals out of order into an error instead of a warning.
	Strict bool
	// KnownTaskTypes, when not nil, is the set of valid task types (the
	// PET's): any other type is an error. KnownMachineTypes likewise for
	// machine types of logs and exec_<machine_type> columns of traces.
	KnownTaskTypes    []string
	KnownMachineTypes []string
	// TypeIndex, when not nil, names the task type indexes of an HCW19 .dat file (whose task
	// types are integer indexes): index k reads as TypeIndex[k], and an index beyond it is an
	// error. It is WriteOptions.TypeIndex read back, so a trial written with a PET's task types
	// reads with their names. Other formats, which keep names, ignore it.
	TypeIndex []string
	// SkipIDs leaves LogRecord.TaskID and MachineID empty, for a reader that needs neither
	// (pet build): a column of unique ids costs a string per record. A mapped id column must
	// still exist.
	SkipIDs bool
	// Inflate bounds what a compressed input may inflate to; the zero value is the defaults.
	Inflate InflateLimit
	// Warn receives non-fatal problems; nil drops them.
	Warn WarnFunc
}

// ParseColumnMap turns flags like "task_type=app" into a column map.
func ParseColumnMap(pairs []string) (map[string]string, error) {
	m := make(map[string]string, len(pairs))
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("column mapping %q: want FIELD=COLUMN, e.g. task_type=app", p)
		}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("column mapping: field %q mapped twice", k)
		}
		m[k] = v
	}
	return m, nil
}

// openTable opens a source as a table of the given (or implied) format. The
// returned closer releases the underlying file.
func openTable(src Source, explicit Format, lim InflateLimit) (table, io.Closer, error) {
	f, err := formatOf(src.formatName(), explicit)
	if err != nil {
		return nil, nil, &InputError{File: src.Name, Msg: "unknown format", Err: err}
	}
	if f == Parquet {
		ra, size, c, err := src.openAt(lim)
		if err != nil {
			return nil, nil, &InputError{File: src.Name, Msg: "cannot open", Err: err}
		}
		t, err := newParquetTable(src.Name, ra, size)
		if err != nil {
			c.Close()
			return nil, nil, err
		}
		return t, c, nil
	}
	rc, err := src.openRawLimited(lim)
	if err != nil {
		return nil, nil, &InputError{File: src.Name, Msg: "cannot open", Err: err}
	}
	t, err := textTable(src.Name, rc, f, lim)
	if err != nil {
		rc.Close()
		return nil, nil, err
	}
	return t, rc, nil
}

// readerTable makes a table from an io.Reader; Parquet needs random access,
// so a reader that is not an io.ReaderAt with a size is read into memory.
func readerTable(name string, r io.Reader, explicit Format, lim InflateLimit) (table, error) {
	f, err := formatOf(name, explicit)
	if err != nil {
		return nil, &InputError{File: name, Msg: "unknown format", Err: err}
	}
	if f != Parquet {
		return textTable(name, r, f, lim)
	}
	type sized interface {
		io.ReaderAt
		Size() int64
	}
	if s, ok := r.(sized); ok {
		return newParquetTable(name, s, s.Size())
	}
	b, err := readAllLimited(r, lim)
	if err != nil {
		return nil, &InputError{File: name, Msg: "read error", Err: err}
	}
	return newParquetTable(name, bytes.NewReader(b), int64(len(b)))
}

func textTable(name string, r io.Reader, f Format, lim InflateLimit) (table, error) {
	switch f {
	case CSV:
		return newCSVTable(name, r, lim)
	case JSONL:
		return newJSONLTable(name, r, lim)
	case Dat:
		return newDatTable(name, r, lim)
	}
	return nil, &InputError{File: name, Msg: fmt.Sprintf("format %q cannot be read here", f)}
}

// binding ties one of our fields to a column of the file.
type binding struct {
	col   int     // -1 when the file has no such column
	label string  // "exec_time", or "runtime_ms (exec_time)" when mapped
	scale float64 // unit conversion, for time fields
	limit float64 // for time fields: MaxSeconds in the unit values are returned in; 0 otherwise
}

func (b binding) present() bool { return b.col >= 0 }

// reader holds what the log and task readers share: the table, the options
// and the position bookkeeping.
type reader struct {
	t       table
	closer  io.Closer
	opt     ReadOptions
	in      Unit // the file's unit
	n       int64
	atEOF   bool
	used    []int
	absent  []string // names looked for and not found
	missing []string // labels of required columns not found, told together by missingErr
	mapping map[string]string
}

func newReader(t table, closer io.Closer, opt ReadOptions, fields []string) (*reader, error) {
	r := &reader{t: t, closer: closer, opt: opt, mapping: opt.Columns}
	for k := range opt.Columns {
		if !slices.Contains(fields, k) && !strings.HasPrefix(k, execPrefix) {
			return nil, r.headerErr("", fmt.Sprintf("column mapping names unknown field %q (fields: %s)", k, strings.Join(fields, ", ")))
		}
	}
	if opt.Unit != "" && !opt.Unit.Valid() {
		return nil, fmt.Errorf("read %s: invalid output unit %q", t.name(), opt.Unit)
	}
	if opt.FileUnit != "" && !opt.FileUnit.Valid() {
		return nil, fmt.Errorf("read %s: invalid file unit %q", t.name(), opt.FileUnit)
	}
	r.in = opt.FileUnit.orDefault()
	if u, ok := t.fileUnit(); ok {
		if opt.FileUnit != "" && opt.FileUnit != u {
			return nil, r.headerErr("time_unit", fmt.Sprintf("the file declares time_unit=%s but the caller says the file is in %s", u, opt.FileUnit))
		}
		r.in = u
	}
	return r, nil
}

func (r *reader) headerErr(col, msg string) *InputError {
	line, row := r.t.headerPos()
	return &InputError{File: r.t.name(), Line: line, Row: row, Column: col, Msg: msg}
}

// bind finds the column for one of our fields, honouring the mapping. An
// exact name match wins; otherwise a unique case-insensitive match is used.
func (r *reader) bind(field string, required bool) (binding, error) {
	name := field
	if m, ok := r.mapping[field]; ok {
		name = m
	}
	label := field
	if name != field {
		label = name + " (" + field + ")"
	}
	cols := r.t.columns()
	col := slices.Index(cols, name)
	if col < 0 {
		for i, c := range cols {
			if strings.EqualFold(c, name) {
				if col >= 0 {
					col = -1 // ambiguous
					break
				}
				col = i
			}
		}
	}
	b := binding{col: col, label: label, scale: 1}
	if col < 0 {
		r.absent = append(r.absent, name)
		if required || name != field { // a column the caller named must exist
			r.missing = append(r.missing, label)
		}
		return b, nil
	}
	r.used = append(r.used, col)
	return b, nil
}

// unuse takes back one bind of col (none when col < 0): a column bound to two fields stays
// projected for the other.
func (r *reader) unuse(col int) {
	if i := slices.Index(r.used, col); col >= 0 && i >= 0 {
		r.used = slices.Delete(r.used, i, i+1)
	}
}

// missingErr reports every required column bind did not find, in one message with the hint
// that maps a field to a column of another name; nil when none is missing.
func (r *reader) missingErr() error {
	if len(r.missing) == 0 {
		return nil
	}
	what := "missing required column"
	if len(r.missing) > 1 {
		what += "s"
	}
	return r.headerErr(strings.Join(r.missing, ", "), what+" (the file has: "+clip(strings.Join(r.t.columns(), ", "), 200)+
		"); if the file names a field differently, map it with --col FIELD=COLUMN, e.g. --col task_type=app")
}

// bindTime binds a time field and sets its unit conversion.
func (r *reader) bindTime(field string, required bool) (binding, error) {
	b, err := r.bind(field, required)
	if err != nil || !b.present() {
		return b, err
	}
	in := r.in
	if u := r.t.columnUnit(b.col); u != "" {
		in = u
	}
	b.scale, b.limit = in.Factor(r.opt.Unit), MaxSeconds*Second.Factor(r.opt.Unit)
	return b, nil
}

// start projects the bound columns; call after binding, before reading.
func (r *reader) start() {
	slices.Sort(r.used)
	r.used = slices.Compact(r.used)
	r.t.project(r.used)
	if w, ok := r.t.(interface{ watch([]string) }); ok {
		w.watch(r.absent)
	}
}

// advance moves to the next record; it turns the end of an empty file into an
// error.
func (r *reader) advance() error {
	if r.atEOF {
		return io.EOF
	}
	err := r.t.next()
	if err == io.EOF {
		r.atEOF = true
		if r.n == 0 {
			line, row := r.t.where()
			return &InputError{File: r.t.name(), Line: line, Row: row, Msg: "empty file: no records"}
		}
		return io.EOF
	}
	if err != nil {
		r.atEOF = true // a structural error ends the stream
		return err
	}
	r.n++
	return nil
}

// errAt builds an error about column b of the current record.
func (r *reader) errAt(b binding, showValue bool, msg string) *InputError {
	line, row := r.t.where()
	e := &InputError{File: r.t.name(), Line: line, Row: row, Column: b.label, Msg: msg}
	if showValue && b.present() {
		e.Value, e.HasValue = r.t.raw(b.col), true
	}
	return e
}

func (r *reader) cellErr(b binding, st cellStatus) *InputError {
	switch st {
	case cellAbsent:
		return r.errAt(b, false, "missing value")
	case cellNotFinite:
		return r.errAt(b, true, "is not a finite number")
	case cellNotText:
		return r.errAt(b, true, "is not a string")
	}
	return r.errAt(b, true, "is not a number")
}

// text reads a string field; a required field may not be empty.
func (r *reader) text(b binding, required bool) (string, error) {
	if !b.present() {
		return "", nil
	}
	s, st := r.t.text(b.col)
	if st == cellOK || (st == cellAbsent && !required) {
		return s, nil
	}
	return "", r.cellErr(b, st)
}

// number reads a numeric field, converted to the output unit. An absent
// optional value is NaN.
func (r *reader) number(b binding, required bool) (float64, error) {
	if !b.present() {
		return math.NaN(), nil
	}
	v, st := r.t.number(b.col)
	switch {
	case st == cellOK && b.limit > 0 && math.Abs(v*b.scale) > b.limit:
		return 0, r.errAt(b, true, fmt.Sprintf("is beyond %g s (30,000 years): a corrupt time", MaxSeconds))
	case st == cellOK:
		return v * b.scale, nil
	case st == cellAbsent && !required:
		return math.NaN(), nil
	}
	return 0, r.cellErr(b, st)
}

// checkKnown reports a name outside the caller's known set.
func (r *reader) checkKnown(b binding, name string, known map[string]bool, what string) error {
	if known == nil || known[name] {
		return nil
	}
	return r.errAt(b, true, fmt.Sprintf("is not a %s of the PET (known: %s)", what, clip(strings.Join(sortedKeys(known), ", "), 200)))
}

func knownSet(names []string) map[string]bool {
	if names == nil {
		return nil
	}
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, natural.Compare)
	return out
}

func (r *reader) close() error {
	err := r.t.close()
	if r.closer != nil {
		if cerr := r.closer.Close(); err == nil {
			err = cerr
		}
	}
	return err
}
