package petbuild

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hcreplay/hcreplay/internal/decimal"
)

// The HCW19 .etc format (SPEC §4.4, reference/anchors.md §1.3):
//
//	machineCount=8;taskCount=12;
//	machine=0;task=0;
//	2	0.00122249
//	4	0.00122249
//	...
//
// The file carries neither names, nor a time unit, nor a step: types are named by their
// indices "0", "1", ..., the time unit is DefaultTimeUnit and the step is inferred from the
// times (inferStep). The original files end lines with CRLF and a trailing space; the reader
// accepts LF, CRLF or CR and any surrounding blanks, and the time and probability may be
// separated by any run of tabs or spaces.

// maxLineBytes bounds one line of a text PET; the longest real line is about 20 bytes.
const maxLineBytes = 1 << 20

// etcCell is a cell block as read, before the step is known: the line of its header, and where
// its time-probability lines lie in the reader's points.
type etcCell struct {
	line       int
	start, end int
}

type etcReader struct {
	file            string
	machines, tasks int
	cells           []*etcCell // row-major by task
	cur             *etcCell
	line            int
	// The points of every cell, in file order: each a time, a probability and its line number,
	// for messages. One array each for the whole file, not three a cell: a fresh process pays
	// a page fault for each new page, and reading HCW19's PET allocated half as much.
	times, probs []float64
	lines        []int
}

// reserve sizes the points for a file of f's size, at 12 bytes a line or more (HCW19 has 16), so
// that they are allocated once instead of grown by doubling: the growth had more than doubled
// what reading HCW19's PET allocated. Memory reserved past the points read is never touched,
// so it costs no page. A file past 64 MiB grows its points as it is read: a reservation would
// be a gigabyte's worth of address space on the strength of the file's size alone.
func (er *etcReader) reserve(f *os.File) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > 64<<20 {
		return
	}
	n := int(st.Size()/12) + 16
	er.times, er.probs, er.lines = make([]float64, 0, n), make([]float64, 0, n), make([]int, 0, n)
}

// points are cell c's times, probabilities and line numbers.
func (er *etcReader) points(c *etcCell) (times, probs []float64, lines []int) {
	return er.times[c.start:c.end], er.probs[c.start:c.end], er.lines[c.start:c.end]
}

// closeCell ends the current cell at the last point read.
func (er *etcReader) closeCell() {
	if er.cur != nil {
		er.cur.end = len(er.times)
	}
}

// ReadETC reads an HCW19 .etc PET from r; name is used in error messages.
func ReadETC(r io.Reader, name string, opt ReadOptions) (*PET, error) {
	er := &etcReader{file: name}
	if f, ok := r.(*os.File); ok {
		er.reserve(f)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLineBytes)
	sc.Split(scanLines)
	header := false
	for sc.Scan() {
		er.line++
		// Bytes, not a string per line: the time-probability lines, most of the file, are
		// parsed in place (point): HCW19's PET read in 2.1 ms instead of 3.7 (BenchmarkReadETC),
		// 1.7 with the points stored at their size (closeCell).
		text := bytes.TrimSpace(sc.Bytes())
		if er.line == 1 {
			text = bytes.TrimPrefix(text, []byte("\ufeff"))
		}
		if len(text) == 0 {
			continue
		}
		var err error
		switch {
		case !header:
			err = er.header(string(text))
			header = true
		case bytes.HasPrefix(text, []byte("machine=")) || bytes.HasPrefix(text, []byte("task=")):
			err = er.cellHeader(string(text))
		default:
			err = er.point(text)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ReadError{File: name, Line: er.line + 1, Err: err}
	}
	if !header {
		return nil, &ReadError{File: name, Msg: "file is empty"}
	}
	return er.finish(opt)
}

func (er *etcReader) errorf(field, value, format string, args ...any) error {
	return &ReadError{File: er.file, Line: er.line, Field: field, Value: value, Msg: fmt.Sprintf(format, args...)}
}

// header parses `machineCount=8;taskCount=12;`.
func (er *etcReader) header(text string) error {
	kv, err := er.pairs(text, "machineCount", "taskCount")
	if err != nil {
		return err
	}
	er.machines, er.tasks = kv["machineCount"], kv["taskCount"]
	if er.machines < 1 || er.tasks < 1 {
		return er.errorf("header", text, "must have positive machineCount and taskCount")
	}
	if er.machines*er.tasks > maxCells {
		return er.errorf("header", text, "has more than %d cells", maxCells)
	}
	er.cells = make([]*etcCell, er.machines*er.tasks)
	return nil
}

// cellHeader parses `machine=M;task=T;` and starts a new cell.
func (er *etcReader) cellHeader(text string) error {
	kv, err := er.pairs(text, "machine", "task")
	if err != nil {
		return err
	}
	m, t := kv["machine"], kv["task"]
	if m < 0 || m >= er.machines {
		return er.errorf("machine", strconv.Itoa(m), "is out of range [0, %d)", er.machines)
	}
	if t < 0 || t >= er.tasks {
		return er.errorf("task", strconv.Itoa(t), "is out of range [0, %d)", er.tasks)
	}
	i := t*er.machines + m
	if prev := er.cells[i]; prev != nil {
		return er.errorf("cell", text, "appears twice (first at line %d)", prev.line)
	}
	er.closeCell()
	er.cur = &etcCell{line: er.line, start: len(er.times)}
	er.cells[i] = er.cur
	return nil
}

// pairs parses `key=int;key=int;` and requires exactly the keys given.
func (er *etcReader) pairs(text string, keys ...string) (map[string]int, error) {
	kv := make(map[string]int, len(keys))
	for _, part := range strings.Split(text, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return nil, er.errorf("", part, "is not a key=value pair")
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !slices.Contains(keys, k) {
			return nil, er.errorf("key", k, "is unknown here (want %s)", strings.Join(keys, ", "))
		}
		if _, dup := kv[k]; dup {
			return nil, er.errorf("key", k, "appears twice")
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, er.errorf(k, v, "is not an integer")
		}
		kv[k] = n
	}
	for _, k := range keys {
		if _, ok := kv[k]; !ok {
			return nil, er.errorf("", text, "lacks %s", k)
		}
	}
	return kv, nil
}

// point parses a `time<TAB>probability` line, trimmed.
func (er *etcReader) point(text []byte) error {
	if er.cur == nil {
		return er.errorf("", string(text), "comes before the first machine=M;task=T; line")
	}
	first, second, ok := twoFields(text)
	if !ok {
		return er.errorf("", string(text), "is not a `time<TAB>probability` line")
	}
	t, err := parseNumber(first)
	if err != nil {
		return er.errorf("time", string(first), "%v", err)
	}
	if t < 0 {
		return er.errorf("time", string(first), "is negative")
	}
	p, err := parseNumber(second)
	if err != nil {
		return er.errorf("probability", string(second), "%v", err)
	}
	if p < 0 {
		return er.errorf("probability", string(second), "is negative")
	}
	er.times, er.probs, er.lines = append(er.times, t), append(er.probs, p), append(er.lines, er.line)
	return nil
}

// twoFields splits a trimmed line into its two fields as strings.Fields does, and reports
// whether it has exactly two.
func twoFields(text []byte) (first, second []byte, ok bool) {
	if first, second, ascii := twoFieldsASCII(text); ascii {
		return first, second, first != nil
	}
	i := bytes.IndexFunc(text, unicode.IsSpace)
	if i < 0 {
		return nil, nil, false
	}
	first, second = text[:i], bytes.TrimLeftFunc(text[i:], unicode.IsSpace)
	if bytes.IndexFunc(second, unicode.IsSpace) >= 0 {
		return nil, nil, false
	}
	return first, second, true
}

// twoFieldsASCII is twoFields for a line of printable ASCII between the tabs and spaces of at
// most one gap, as nearly every line of a PET file is: three loops over bytes instead of a
// Unicode test per rune. It is not ascii when the line holds anything else (a second gap, a
// control character, a byte past ASCII), which twoFields then splits by Unicode's spaces; first
// is nil when the line is a single field.
func twoFieldsASCII(text []byte) (first, second []byte, ascii bool) {
	field := func(i int) int {
		for i < len(text) && text[i] > ' ' && text[i] < utf8.RuneSelf {
			i++
		}
		return i
	}
	i := field(0)
	j := i
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	if field(j) < len(text) {
		return nil, nil, false
	}
	if j == len(text) { // one field: text is trimmed, and what ends the first is a gap or the end
		return nil, nil, true
	}
	return text[:i], text[j:], true
}

// parseNumber parses a finite decimal float.
func parseNumber(b []byte) (float64, error) {
	if x, ok := decimal.Parse(b); ok {
		return x, nil
	}
	x, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, errors.New("is out of range")
		}
		return 0, errors.New("is not a number")
	}
	if !finite(x) {
		return 0, errors.New("is not finite")
	}
	return x, nil
}

// finish infers the step, lays the cells out on it and assembles the PET.
func (er *etcReader) finish(opt ReadOptions) (*PET, error) {
	er.closeCell()
	tasks, machines := indexNamesList(er.tasks), indexNamesList(er.machines)
	for i, c := range er.cells {
		if c != nil && c.start == c.end {
			return nil, &ReadError{File: er.file, Line: c.line, Cell: cellName(tasks[i/er.machines], machines[i%er.machines]), Msg: "has no time<TAB>probability lines"}
		}
	}
	step := opt.fixedStep()
	if step == 0 {
		var bad float64
		var ok bool
		if step, bad, ok = inferStep(er.times); !ok { // every point is a cell's: none comes before the first
			return nil, er.offStep(bad)
		}
	}
	raw := make([]*rawCell, len(er.cells))
	for i, c := range er.cells {
		if c == nil {
			continue
		}
		times, probs, lines := er.points(c)
		origin, w, j, err := dense(times, probs, step)
		if err != nil {
			return nil, &ReadError{File: er.file, Line: lines[j], Cell: cellName(tasks[i/er.machines], machines[i%er.machines]),
				Field: "time", Value: strconv.FormatFloat(times[j], 'g', -1, 64), Err: err}
		}
		raw[i] = &rawCell{origin: origin, weights: w, line: c.line, prov: Provenance{Binning: "read from .etc"}}
	}
	return assemble(er.file, tasks, machines, DefaultTimeUnit, step, raw, opt)
}

// offStep reports the first line whose time breaks the common step.
func (er *etcReader) offStep(bad float64) error {
	for _, c := range er.cells {
		if c == nil {
			continue
		}
		times, _, lines := er.points(c)
		for j, t := range times {
			if t == bad {
				return &ReadError{File: er.file, Line: lines[j], Field: "time", Value: strconv.FormatFloat(bad, 'g', -1, 64),
					Msg: "is not on a common step with the earlier times of the file"}
			}
		}
	}
	return &ReadError{File: er.file, Msg: "times are not on a common step"}
}

// indexNamesList returns "0", "1", ..., "n-1": the type names of an .etc file.
func indexNamesList(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(i)
	}
	return out
}

// scanLines splits at LF, CRLF or a lone CR (old Mac files), without the terminator.
func scanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	// The first LF, then a CR before it: two byte searches, each as fast as memchr, where
	// bytes.IndexAny tested each byte against a set.
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		i = len(data)
	}
	if j := bytes.IndexByte(data[:i], '\r'); j >= 0 {
		i = j
	}
	if i < len(data) {
		if data[i] == '\n' {
			return i + 1, data[:i], nil
		}
		if i+1 < len(data) {
			if data[i+1] == '\n' {
				return i + 2, data[:i], nil
			}
			return i + 1, data[:i], nil
		}
		if atEOF {
			return i + 1, data[:i], nil
		}
		return 0, nil, nil // a CR at the end of the buffer: wait to see whether LF follows
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// ETCLosses says what writing p as .etc loses that a reader would need: type names other than
// the indexes the format writes, and a time unit other than DefaultTimeUnit, which a reader of
// the .etc assumes. Empty when the .etc reads back as the same matrix.
func ETCLosses(p *PET) string {
	var lost []string
	for _, kind := range []struct {
		what  string
		names []string
	}{{"task", p.taskTypes}, {"machine", p.machineTypes}} {
		if !slices.Equal(kind.names, indexNamesList(len(kind.names))) {
			lost = append(lost, fmt.Sprintf("%s type names (%s become 0 to %d)", kind.what, clipNames(kind.names), len(kind.names)-1))
		}
	}
	if p.timeUnit != DefaultTimeUnit {
		lost = append(lost, fmt.Sprintf("the time unit %s (an .etc file reads as %s)", p.timeUnit, DefaultTimeUnit))
	}
	return strings.Join(lost, "; ")
}

// clipNames lists names, cut after a few.
func clipNames(names []string) string {
	if len(names) > 6 {
		return strings.Join(names[:6], ", ") + fmt.Sprintf(", … (%d in all)", len(names))
	}
	return strings.Join(names, ", ")
}

// WriteETC writes the PET in the HCW19 .etc format: types are written as their indices in
// matrix order (the format has no names), cells task-major as in the HCW19 files, and only
// the non-zero impulses, each time and probability in the shortest form that reads back to
// the same float64. The format cannot carry the time unit, the provenance or a step coarser
// than the times imply.
func WriteETC(w io.Writer, p *PET) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "machineCount=%d;taskCount=%d;\n", p.NumMachineTypes(), p.NumTaskTypes())
	for t := 0; t < p.NumTaskTypes(); t++ {
		for m := 0; m < p.NumMachineTypes(); m++ {
			fmt.Fprintf(bw, "machine=%d;task=%d;\n", m, t)
			d := p.Cell(t, m)
			for k := 0; k < d.Len(); k++ {
				if x := d.Prob(k); x != 0 {
					bw.WriteString(strconv.FormatFloat(d.Time(k), 'g', -1, 64))
					bw.WriteByte('\t')
					bw.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
					bw.WriteByte('\n')
				}
			}
		}
	}
	return bw.Flush()
}
