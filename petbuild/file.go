package petbuild

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/pmf"
)

// Format is a PET file format.
type Format int

const (
	FormatJSON    Format = iota + 1 // native, versioned JSON (.json)
	FormatParquet                   // long-form Parquet (.parquet)
	FormatETC                       // the HCW19 text format (.etc)
)

func (f Format) String() string {
	switch f {
	case FormatJSON:
		return "json"
	case FormatParquet:
		return "parquet"
	case FormatETC:
		return "etc"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// FormatOf chooses the format from the file's extension (case-insensitive).
func FormatOf(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		return FormatJSON, nil
	case ".parquet":
		return FormatParquet, nil
	case ".etc":
		return FormatETC, nil
	}
	return 0, fmt.Errorf("pet file %s: unknown extension %q (want .json, .parquet or .etc)", path, filepath.Ext(path))
}

// DefaultMaxDeficit is the default tolerance on a cell's missing (or excess) mass. HCW19 cells
// miss up to 0.0036 because their tails were cut off; a cell missing more than 1% is more
// likely a broken file than a truncated histogram.
const DefaultMaxDeficit = 0.01

// ReadOptions tune the readers. The zero value uses the defaults.
type ReadOptions struct {
	// MaxDeficit bounds |1 − Σ probabilities| of a cell as found in the file; a cell beyond it
	// is an error. Zero means DefaultMaxDeficit. A deficit recorded in a native file's
	// provenance (from an earlier renormalisation) is carried along, not checked again.
	MaxDeficit float64
	// Step, when positive, is the step of a file that does not state one (.etc, Parquet
	// without step metadata) instead of the inferred one; every time must be a whole multiple
	// of it. Setting it turns a stray time such as 7.3 among 2, 4, 6 into an error rather than
	// a finer inferred step of 0.1.
	Step float64
}

// fixedStep is the caller's step, or 0 when none (or no usable one) was given.
func (o ReadOptions) fixedStep() float64 {
	if o.Step > 0 && !math.IsInf(o.Step, 1) {
		return o.Step
	}
	return 0
}

func (o ReadOptions) maxDeficit() float64 {
	if o.MaxDeficit > 0 {
		return o.MaxDeficit
	}
	return DefaultMaxDeficit
}

// ReadFile reads a PET in the format its extension names.
func ReadFile(path string, opt ReadOptions) (*PET, error) {
	format, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	// A FIFO would block the open forever (issue 49): refuse what is not a regular file first.
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		return nil, &ReadError{File: path, Msg: "is not a regular file (a named pipe, a device or a socket): give a file"}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	switch format {
	case FormatJSON:
		return ReadJSON(f, path, opt)
	case FormatETC:
		return ReadETC(f, path, opt)
	default:
		st, err := f.Stat()
		if err != nil {
			return nil, err
		}
		return ReadParquet(f, st.Size(), path, opt)
	}
}

// WriteFile writes the PET in the format its extension names. It writes a temporary file in
// the same directory and renames it, so a reader never sees a half-written PET and a failed
// write leaves the old file in place.
func WriteFile(path string, p *PET) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		switch format {
		case FormatJSON:
			return WriteJSON(w, p)
		case FormatETC:
			return WriteETC(w, p)
		default:
			return WriteParquet(w, p)
		}
	})
}

// rawCell is a cell as a reader found it, before renormalisation.
type rawCell struct {
	origin  float64
	weights []float64
	prov    Provenance
	line    int    // where the cell starts (text formats), for errors
	row     int    // first row of the cell (Parquet), for errors
	field   string // the cell's field (JSON), for errors
}

// assemble checks the step, that no cell is missing and that every cell's grid is usable
// (checkGrid: the one check all readers share), renormalises the cells and builds the PET.
// raw is indexed row-major like PET.cells; a nil entry is a missing cell.
func assemble(file string, tasks, machines []string, timeUnit string, step float64, raw []*rawCell, opt ReadOptions) (*PET, error) {
	if err := missingCells(file, tasks, machines, raw); err != nil {
		return nil, err
	}
	if err := checkStep(step); err != nil {
		return nil, &ReadError{File: file, Field: err.field, Value: num(err.value), Msg: err.msg}
	}
	cells := make([]Cell, len(raw))
	for i, rc := range raw {
		name := cellName(tasks[i/len(machines)], machines[i%len(machines)])
		if err := checkGrid(rc.origin, step, len(rc.weights)); err != nil {
			return nil, &ReadError{File: file, Line: rc.line, Row: rc.row, Cell: name,
				Field: strings.TrimPrefix(rc.field+"."+err.field, "."), Value: num(err.value), Msg: err.msg}
		}
		c, err := normalise(rc, step, opt.maxDeficit())
		if err != nil {
			return nil, &ReadError{File: file, Line: rc.line, Row: rc.row, Cell: name, Field: rc.field, Err: err}
		}
		cells[i] = c
	}
	p, err := New(tasks, machines, timeUnit, cells)
	if err != nil {
		return nil, &ReadError{File: file, Err: err}
	}
	return p, nil
}

func missingCells(file string, tasks, machines []string, raw []*rawCell) error {
	var names []string
	for i, rc := range raw {
		if rc == nil {
			names = append(names, cellName(tasks[i/len(machines)], machines[i%len(machines)]))
		}
	}
	if len(names) == 0 {
		return nil
	}
	const show = 10
	msg := strings.Join(names[:min(show, len(names))], ", ")
	if len(names) > show {
		msg += fmt.Sprintf(" and %d more", len(names)-show)
	}
	return &ReadError{File: file, Msg: fmt.Sprintf("%d of %d cells missing: %s", len(names), len(raw), msg)}
}

// normalise turns raw weights into a PMF. A cell whose mass is 1 within pmf.MassTolerance is
// taken as it is, so that files this package wrote read back bit for bit; any other cell is
// renormalised and its deficit added to the provenance.
func normalise(rc *rawCell, step, maxDeficit float64) (Cell, error) {
	sum := 0.0
	for _, w := range rc.weights {
		sum += w
	}
	deficit := 1 - sum
	if !(math.Abs(deficit) <= maxDeficit) {
		return Cell{}, fmt.Errorf("probabilities sum to %.6g: deficit %.6g exceeds the tolerance %g", sum, deficit, maxDeficit)
	}
	prov := rc.prov
	var d pmf.PMF
	var err error
	if math.Abs(deficit) <= pmf.MassTolerance {
		d, err = pmf.New(rc.origin, step, rc.weights)
	} else {
		d, _, err = pmf.FromWeights(rc.origin, step, rc.weights)
		prov.Deficit += deficit
	}
	if err != nil {
		return Cell{}, err
	}
	return Cell{PMF: d, Provenance: prov}, nil
}
