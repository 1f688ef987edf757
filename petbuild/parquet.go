package petbuild

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// Long-form Parquet: one row per impulse, columns task_type, machine_type, time, prob, for
// analysis in other tools (pandas, DuckDB, R). Every impulse from a cell's origin to its last
// impulse is written, zeros inside the support included, so plots show the gaps. The file's
// key-value metadata carries what the rows cannot:
//
//	hcreplay.format   "hcreplay-pet"
//	hcreplay.version  "1"
//	time_unit         e.g. "ms"
//	step              the shared step, shortest round-trip form
//	task_types        JSON array of names, matrix order
//	machine_types     JSON array of names, matrix order
//	provenance        JSON array of per-cell provenance, row-major by task type
//
// The reader accepts long-form files from other tools too: without metadata, types are
// ordered by first appearance, the time unit is DefaultTimeUnit and the step is inferred from
// the times as for .etc files. Rows may come in any order.

const (
	pqKeyFormat       = "hcreplay.format"
	pqKeyVersion      = "hcreplay.version"
	pqKeyTimeUnit     = "time_unit"
	pqKeyStep         = "step"
	pqKeyTaskTypes    = "task_types"
	pqKeyMachineTypes = "machine_types"
	pqKeyProvenance   = "provenance"
)

// maxParquetRows bounds the rows of a long-form PET: a thousand task types × a hundred machine
// types × a thousand impulses is 1e8 rows, and nothing realistic comes near.
const maxParquetRows = 1 << 27

type parquetRow struct {
	TaskType    string  `parquet:"task_type,dict"`
	MachineType string  `parquet:"machine_type,dict"`
	Time        float64 `parquet:"time"`
	Prob        float64 `parquet:"prob"`
}

type parquetProv struct {
	TaskType    string  `json:"task_type"`
	MachineType string  `json:"machine_type"`
	Samples     int     `json:"samples"`
	Deficit     float64 `json:"deficit"`
	CutMass     float64 `json:"cut_mass"`
	FilledFrom  string  `json:"filled_from,omitempty"`
	SampleMean  float64 `json:"sample_mean,omitempty"`
	SampleSD    float64 `json:"sample_sd,omitempty"`
	Binning     string  `json:"binning"`
}

// WriteParquet writes the PET as long-form Parquet (zstd-compressed).
func WriteParquet(w io.Writer, p *PET) error {
	opts, err := parquetMetadata(p)
	if err != nil {
		return err
	}
	opts = append(opts, parquet.Compression(&parquet.Zstd))
	pw := parquet.NewGenericWriter[parquetRow](w, opts...)
	rows := make([]parquetRow, 0, 1024)
	for i, c := range p.cells {
		task, machine := p.taskTypes[i/len(p.machineTypes)], p.machineTypes[i%len(p.machineTypes)]
		for k := 0; k < c.PMF.Len(); k++ {
			rows = append(rows, parquetRow{TaskType: task, MachineType: machine, Time: c.PMF.Time(k), Prob: c.PMF.Prob(k)})
		}
		if len(rows) >= 1024 || i == len(p.cells)-1 {
			if _, err := pw.Write(rows); err != nil {
				return err
			}
			rows = rows[:0]
		}
	}
	// Close writes the footer; without it the file is unreadable.
	return pw.Close()
}

func parquetMetadata(p *PET) ([]parquet.WriterOption, error) {
	prov := make([]parquetProv, len(p.cells))
	for i, c := range p.cells {
		pr := c.Provenance
		prov[i] = parquetProv{TaskType: p.taskTypes[i/len(p.machineTypes)], MachineType: p.machineTypes[i%len(p.machineTypes)],
			Samples: pr.Samples, Deficit: pr.Deficit, CutMass: pr.CutMass, FilledFrom: pr.FilledFrom, Binning: pr.Binning,
			SampleMean: pr.SampleMean, SampleSD: pr.SampleSD}
	}
	kv := map[string]any{pqKeyTaskTypes: p.taskTypes, pqKeyMachineTypes: p.machineTypes, pqKeyProvenance: prov}
	opts := []parquet.WriterOption{
		parquet.KeyValueMetadata(pqKeyFormat, jsonFormat),
		parquet.KeyValueMetadata(pqKeyVersion, strconv.Itoa(jsonVersion)),
		parquet.KeyValueMetadata(pqKeyTimeUnit, p.timeUnit),
		parquet.KeyValueMetadata(pqKeyStep, num(p.step)),
	}
	for _, k := range []string{pqKeyTaskTypes, pqKeyMachineTypes, pqKeyProvenance} {
		b, err := json.Marshal(kv[k])
		if err != nil {
			return nil, err
		}
		opts = append(opts, parquet.KeyValueMetadata(k, string(b)))
	}
	return opts, nil
}

// ReadParquet reads a long-form Parquet PET of the given size from r; name is used in error
// messages. Columns may be uncompressed or compressed with snappy, gzip, brotli or zstd; see
// codecs for why LZ4 is refused.
func ReadParquet(r io.ReaderAt, size int64, name string, opt ReadOptions) (*PET, error) {
	return readParquet(r, size, name, opt, pqLimits{cells: maxCells, cellRows: maxCellImpulses})
}

// pqLimits are the most cells a file may have and the most rows a cell may have: maxCells and
// maxCellImpulses, or less in a test, which then reaches them without a million rows.
type pqLimits struct{ cells, cellRows int }

// readParquet is ReadParquet with the limits as a parameter.
func readParquet(r io.ReaderAt, size int64, name string, opt ReadOptions, lim pqLimits) (p *PET, err error) {
	if size == 0 {
		return nil, &ReadError{File: name, Msg: "file is empty"}
	}
	// parquet-go decodes pages with code that can panic on corrupt input (bad lengths, bad
	// dictionary indices). A PET reader must never panic on bad input, so a panic from inside
	// the library becomes a read error here; our own code below does not panic by design.
	defer func() {
		if v := recover(); v != nil {
			p, err = nil, &ReadError{File: name, Msg: fmt.Sprintf("corrupt Parquet file: %v", v)}
		}
	}()
	if err := checkFooter(r, size); err != nil {
		return nil, &ReadError{File: name, Msg: "not a readable Parquet file", Err: err}
	}
	pf, err := parquet.OpenFile(r, size)
	if err != nil {
		return nil, &ReadError{File: name, Msg: "not a readable Parquet file", Err: err}
	}
	if n := pf.NumRows(); n < 0 || n > maxParquetRows {
		return nil, &ReadError{File: name, Msg: fmt.Sprintf("claims %d rows; the limit is %d", n, maxParquetRows)}
	}
	pr := &parquetReader{file: name, pf: pf, lim: lim}
	if err := pr.codecs(); err != nil {
		return nil, err
	}
	if err := pr.columns(); err != nil {
		return nil, err
	}
	if err := pr.metadata(); err != nil {
		return nil, err
	}
	if err := pr.rows(); err != nil {
		return nil, err
	}
	return pr.finish(opt)
}

// checkFooter validates the framing parquet.OpenFile trusts: the file starts with "PAR1" and
// ends with a 4-byte footer length and "PAR1", and the footer fits inside the file.
// parquet-go v0.32.0 allocates the footer length it reads before comparing it with the file
// size, so a corrupt length would make it allocate up to 4 GiB.
func checkFooter(r io.ReaderAt, size int64) error {
	const magic = "PAR1"
	if size < 12 {
		return fmt.Errorf("%d bytes is too short for a Parquet file", size)
	}
	var head [4]byte
	var tail [8]byte
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return err
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if string(head[:]) != magic || string(tail[4:]) != magic {
		return errors.New("missing PAR1 magic bytes (not Parquet, encrypted, or truncated)")
	}
	if footer := int64(binary.LittleEndian.Uint32(tail[:4])); footer > size-12 {
		return fmt.Errorf("footer length %d exceeds the file size %d (truncated?)", footer, size)
	}
	return nil
}

type pqCell struct {
	times, probs []float64
	rows         []int
}

type parquetReader struct {
	file       string
	pf         *parquet.File
	col        [4]int // column indices of task_type, machine_type, time, prob
	timeUnit   string
	step       float64 // 0 when the file does not state it
	tasks      []string
	machines   []string
	fixedTypes bool // the type lists came from the metadata
	prov       []parquetProv
	taskIdx    map[string]int
	machineIdx map[string]int
	cells      map[[2]int]*pqCell
	lim        pqLimits
}

// codecs rejects compression codecs the reader cannot decode safely. parquet-go v0.32.0's
// LZ4_RAW decoder retries with a doubled buffer on every error, so corrupt LZ4 data makes it
// loop until memory runs out; LZO and the deprecated Hadoop LZ4 are not implemented at all.
// PETs written by this package use zstd, and pandas/pyarrow default to snappy.
func (pr *parquetReader) codecs() error {
	for _, rg := range pr.pf.Metadata().RowGroups {
		for _, c := range rg.Columns {
			switch codec := c.MetaData.Codec; codec {
			case format.Uncompressed, format.Snappy, format.Gzip, format.Brotli, format.Zstd:
			default:
				return &ReadError{File: pr.file, Field: "column", Value: strings.Join(c.MetaData.PathInSchema, "."),
					Msg: fmt.Sprintf("uses compression %v, which this reader does not accept (rewrite it with zstd, snappy or gzip)", codec)}
			}
		}
	}
	return nil
}

var pqColumns = [4]string{"task_type", "machine_type", "time", "prob"}

// columns checks that the four columns exist with usable types. parquet-go zero-fills a
// missing column silently, so this check is what makes a wrong file an error.
func (pr *parquetReader) columns() error {
	for i, name := range pqColumns {
		leaf, ok := pr.pf.Schema().Lookup(name)
		if !ok {
			return &ReadError{File: pr.file, Field: "column", Value: name, Msg: "is missing"}
		}
		if leaf.MaxRepetitionLevel > 0 {
			return &ReadError{File: pr.file, Field: "column", Value: name, Msg: "is repeated (want one value per row)"}
		}
		kind := leaf.Node.Type().Kind()
		want := "a string"
		ok = kind == parquet.ByteArray
		if i >= 2 {
			want = "numeric"
			ok = kind == parquet.Double || kind == parquet.Float || kind == parquet.Int32 || kind == parquet.Int64
		}
		if !ok {
			return &ReadError{File: pr.file, Field: "column", Value: name, Msg: fmt.Sprintf("has type %v, want %s", kind, want)}
		}
		pr.col[i] = leaf.ColumnIndex
	}
	return nil
}

// metadata reads the optional key-value metadata.
func (pr *parquetReader) metadata() error {
	pr.timeUnit = DefaultTimeUnit
	if f, ok := pr.pf.Lookup(pqKeyFormat); ok && f != jsonFormat {
		return &ReadError{File: pr.file, Field: "metadata " + pqKeyFormat, Value: f, Msg: fmt.Sprintf("is not %q", jsonFormat)}
	}
	if v, ok := pr.pf.Lookup(pqKeyVersion); ok && v != strconv.Itoa(jsonVersion) {
		return &ReadError{File: pr.file, Field: "metadata " + pqKeyVersion, Value: v,
			Msg: fmt.Sprintf("is not supported (this build reads version %d)", jsonVersion)}
	}
	if u, ok := pr.pf.Lookup(pqKeyTimeUnit); ok && u != "" {
		pr.timeUnit = u
	}
	if s, ok := pr.pf.Lookup(pqKeyStep); ok {
		step, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return &ReadError{File: pr.file, Field: "metadata " + pqKeyStep, Value: s, Msg: "is not a positive number"}
		}
		if err := checkStep(step); err != nil {
			return &ReadError{File: pr.file, Field: "metadata " + pqKeyStep, Value: s, Msg: err.msg}
		}
		pr.step = step
	}
	if err := pr.typeLists(); err != nil {
		return err
	}
	if s, ok := pr.pf.Lookup(pqKeyProvenance); ok {
		if err := json.Unmarshal([]byte(s), &pr.prov); err != nil {
			return &ReadError{File: pr.file, Field: "metadata " + pqKeyProvenance, Msg: "is not a JSON array of cell provenance", Err: err}
		}
	}
	return nil
}

func (pr *parquetReader) typeLists() error {
	ts, tok := pr.pf.Lookup(pqKeyTaskTypes)
	ms, mok := pr.pf.Lookup(pqKeyMachineTypes)
	pr.taskIdx, pr.machineIdx = map[string]int{}, map[string]int{}
	if !tok && !mok {
		return nil
	}
	for _, l := range []struct {
		key, text string
		names     *[]string
		idx       *map[string]int
		kind      string
	}{{pqKeyTaskTypes, ts, &pr.tasks, &pr.taskIdx, "task"}, {pqKeyMachineTypes, ms, &pr.machines, &pr.machineIdx, "machine"}} {
		if err := json.Unmarshal([]byte(l.text), l.names); err != nil {
			return &ReadError{File: pr.file, Field: "metadata " + l.key, Value: l.text, Msg: "is not a JSON array of names"}
		}
		idx, err := indexNames(l.kind, *l.names)
		if err != nil {
			return &ReadError{File: pr.file, Field: "metadata " + l.key, Err: err}
		}
		*l.idx = idx
	}
	if len(pr.tasks)*len(pr.machines) > pr.lim.cells {
		return &ReadError{File: pr.file, Field: "metadata", Msg: fmt.Sprintf("more than %d cells", pr.lim.cells)}
	}
	pr.fixedTypes = true
	return nil
}

// rows reads every row into per-cell (time, prob) lists.
func (pr *parquetReader) rows() error {
	pr.cells = map[[2]int]*pqCell{}
	row := 0
	buf := make([]parquet.Row, 256)
	for _, rg := range pr.pf.RowGroups() {
		rows := rg.Rows()
		for {
			n, err := rows.ReadRows(buf)
			for _, r := range buf[:n] {
				row++
				if err := pr.row(r, row); err != nil {
					rows.Close()
					return err
				}
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				rows.Close()
				return &ReadError{File: pr.file, Row: row + 1, Msg: "corrupt Parquet data", Err: err}
			}
			if n == 0 {
				rows.Close()
				return &ReadError{File: pr.file, Row: row + 1, Msg: "corrupt Parquet data: no progress reading rows"}
			}
		}
		rows.Close()
	}
	if row == 0 {
		return &ReadError{File: pr.file, Msg: "file has no rows"}
	}
	return nil
}

func (pr *parquetReader) row(r parquet.Row, row int) error {
	var task, machine string
	var t, p float64
	var seen [4]bool
	for _, v := range r {
		for i, c := range pr.col {
			if v.Column() != c {
				continue
			}
			if v.IsNull() {
				return &ReadError{File: pr.file, Row: row, Field: pqColumns[i], Msg: "is null"}
			}
			seen[i] = true
			switch i {
			case 0:
				task = string(v.ByteArray())
			case 1:
				machine = string(v.ByteArray())
			case 2:
				t = numericValue(v)
			case 3:
				p = numericValue(v)
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			return &ReadError{File: pr.file, Row: row, Field: pqColumns[i], Msg: "is missing"}
		}
	}
	switch {
	case !finite(t):
		return &ReadError{File: pr.file, Row: row, Field: "time", Value: num(t), Msg: "is not finite"}
	case t < 0:
		return &ReadError{File: pr.file, Row: row, Field: "time", Value: num(t), Msg: "is negative"}
	case !finite(p):
		return &ReadError{File: pr.file, Row: row, Field: "prob", Value: num(p), Msg: "is not finite"}
	case p < 0:
		return &ReadError{File: pr.file, Row: row, Field: "prob", Value: num(p), Msg: "is negative"}
	}
	ti, err := pr.typeIndex(task, pr.taskIdx, &pr.tasks, "task_type", row)
	if err != nil {
		return err
	}
	mi, err := pr.typeIndex(machine, pr.machineIdx, &pr.machines, "machine_type", row)
	if err != nil {
		return err
	}
	c := pr.cells[[2]int{ti, mi}]
	if c == nil {
		if len(pr.cells) >= pr.lim.cells {
			return &ReadError{File: pr.file, Row: row, Msg: fmt.Sprintf("more than %d cells", pr.lim.cells)}
		}
		c = &pqCell{}
		pr.cells[[2]int{ti, mi}] = c
	}
	if len(c.times) >= pr.lim.cellRows {
		return &ReadError{File: pr.file, Row: row, Cell: cellName(task, machine), Msg: fmt.Sprintf("has more than %d rows", pr.lim.cellRows)}
	}
	c.times, c.probs, c.rows = append(c.times, t), append(c.probs, p), append(c.rows, row)
	return nil
}

func numericValue(v parquet.Value) float64 {
	switch v.Kind() {
	case parquet.Float:
		return float64(v.Float())
	case parquet.Int32:
		return float64(v.Int32())
	case parquet.Int64:
		return float64(v.Int64())
	}
	return v.Double()
}

// typeIndex returns the index of a type name, adding it when the file has no type lists.
func (pr *parquetReader) typeIndex(name string, idx map[string]int, names *[]string, field string, row int) (int, error) {
	if i, ok := idx[name]; ok {
		return i, nil
	}
	if pr.fixedTypes {
		return 0, &ReadError{File: pr.file, Row: row, Field: field, Value: name, Msg: "is not in the metadata's type list"}
	}
	if name == "" {
		return 0, &ReadError{File: pr.file, Row: row, Field: field, Msg: "is empty"}
	}
	idx[name] = len(*names)
	*names = append(*names, name)
	return idx[name], nil
}

// finish settles the step, lays each cell out on it and assembles the PET.
func (pr *parquetReader) finish(opt ReadOptions) (*PET, error) {
	if len(pr.tasks)*len(pr.machines) > pr.lim.cells {
		return nil, &ReadError{File: pr.file, Msg: fmt.Sprintf("more than %d cells", pr.lim.cells)}
	}
	step := pr.step
	if step == 0 {
		step = opt.fixedStep()
	}
	if step == 0 {
		var all []float64
		for _, c := range pr.cells {
			all = append(all, c.times...)
		}
		var bad float64
		var ok bool
		if step, bad, ok = inferStep(all); !ok {
			return nil, pr.offStep(bad)
		}
	}
	if pr.prov != nil && len(pr.prov) != len(pr.tasks)*len(pr.machines) {
		return nil, &ReadError{File: pr.file, Field: "metadata " + pqKeyProvenance,
			Msg: fmt.Sprintf("has %d entries for %d cells", len(pr.prov), len(pr.tasks)*len(pr.machines))}
	}
	raw := make([]*rawCell, len(pr.tasks)*len(pr.machines))
	for i := range raw {
		key := [2]int{i / len(pr.machines), i % len(pr.machines)}
		c := pr.cells[key]
		if c == nil {
			continue
		}
		origin, w, j, err := dense(c.times, c.probs, step)
		if err != nil {
			return nil, &ReadError{File: pr.file, Row: c.rows[j], Cell: cellName(pr.tasks[key[0]], pr.machines[key[1]]),
				Field: "time", Value: num(c.times[j]), Err: err}
		}
		rc := &rawCell{origin: origin, weights: w, row: c.rows[0]}
		if pr.prov != nil {
			pv := pr.prov[i]
			if pv.Samples < 0 || !finite(pv.Deficit) || !finite(pv.CutMass) || !(pv.SampleMean >= 0) || !(pv.SampleSD >= 0) ||
				!finite(pv.SampleMean) || !finite(pv.SampleSD) {
				return nil, &ReadError{File: pr.file, Field: fmt.Sprintf("metadata %s[%d]", pqKeyProvenance, i), Msg: "has a negative count or a non-finite mass or sample moment"}
			}
			rc.prov = Provenance{Samples: pv.Samples, Binning: pv.Binning, Deficit: pv.Deficit, CutMass: pv.CutMass, FilledFrom: pv.FilledFrom,
				SampleMean: pv.SampleMean, SampleSD: pv.SampleSD}
		} else {
			rc.prov.Binning = "read from long-form Parquet"
		}
		raw[i] = rc
	}
	return assemble(pr.file, pr.tasks, pr.machines, pr.timeUnit, step, raw, opt)
}

func (pr *parquetReader) offStep(bad float64) error {
	for i := range len(pr.tasks) * len(pr.machines) {
		c := pr.cells[[2]int{i / len(pr.machines), i % len(pr.machines)}]
		if c == nil {
			continue
		}
		for j, t := range c.times {
			if t == bad {
				return &ReadError{File: pr.file, Row: c.rows[j], Field: "time", Value: num(bad),
					Msg: "is not on a common step with the other times of the file"}
			}
		}
	}
	return &ReadError{File: pr.file, Msg: "times are not on a common step"}
}
