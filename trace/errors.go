package trace

import (
	"strconv"
	"strings"
)

// InputError describes one problem with an input file: where it is (file, and
// line for text formats or row for Parquet, and column), the offending value,
// and what is wrong with it. Every error the readers return for bad input is an
// *InputError (possibly wrapped), so a command line can recognise bad input
// with errors.As and exit with the "bad input" code instead of "internal
// error".
//
// Line is 1-based and counts every physical line of the file, header and
// comment lines included, so it matches what an editor shows. Row is 1-based
// too (row 1 is the first record of a Parquet file). Zero means "not known".
type InputError struct {
	File   string // the source name, e.g. "traces/a.csv" or "constant.zip#arr/arr19k_1.dat"
	Line   int    // text formats: physical line number, 0 when not known
	Row    int64  // Parquet: record number, 0 when not known
	Column string // our field name or the file's column name; "" when not about a column
	Value  string // the offending value as it appears in the file; shown only when HasValue
	// HasValue tells whether Value is meaningful (an empty cell is a legitimate value).
	HasValue bool
	Msg      string // what is wrong, e.g. "is not a number"
	Err      error  // an underlying cause, if any
}

func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString("read ")
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(" line ")
		b.WriteString(strconv.Itoa(e.Line))
	}
	if e.Row > 0 {
		b.WriteString(" row ")
		b.WriteString(strconv.FormatInt(e.Row, 10))
	}
	if e.Column != "" {
		b.WriteString(" column ")
		b.WriteString(e.Column)
	}
	b.WriteString(": ")
	if e.HasValue {
		b.WriteString("value ")
		b.WriteString(strconv.Quote(clip(e.Value, 80)))
		b.WriteString(" ")
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		if e.Msg != "" {
			b.WriteString(": ")
		}
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *InputError) Unwrap() error { return e.Err }

// clip shortens s for error messages so that a 1 MB garbage cell does not end
// up on the terminal.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// WarnFunc receives problems that do not stop reading, such as arrivals out of
// order (which ReadTrace sorts). A nil WarnFunc drops warnings.
type WarnFunc func(*InputError)

func (w WarnFunc) warn(e *InputError) {
	if w != nil {
		w(e)
	}
}
