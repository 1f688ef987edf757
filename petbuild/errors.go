package petbuild

import (
	"fmt"
	"strconv"
	"strings"
)

// ReadError reports bad input in a PET file: which file, where in it, which field, which value
// and what is wrong with it. Every reader returns its input errors as a *ReadError (possibly
// wrapped), so the CLI can print one clear line and exit with the bad-input code.
type ReadError struct {
	File  string // the path or name the caller gave
	Line  int    // 1-based line of a text file (.etc, .json); 0 when not known
	Row   int    // 1-based data row of a Parquet file; 0 when not applicable
	Cell  string // the cell concerned, as `task=T machine=M`; empty when none
	Field string // what was being read: "probability", "cells[3].origin", "machineCount"
	Value string // the offending text, quoted in the message; empty when there is none
	Msg   string // what is wrong, e.g. "is not a number"
	Err   error  // the underlying error, if any
}

// Error formats the error as `read FILE line N: cell task=T machine=M: FIELD "VALUE" MSG`,
// leaving out the parts that are empty.
func (e *ReadError) Error() string {
	var b strings.Builder
	b.WriteString("read ")
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(" line ")
		b.WriteString(strconv.Itoa(e.Line))
	}
	if e.Row > 0 {
		b.WriteString(" row ")
		b.WriteString(strconv.Itoa(e.Row))
	}
	b.WriteString(": ")
	if e.Cell != "" {
		b.WriteString("cell ")
		b.WriteString(e.Cell)
		b.WriteString(": ")
	}
	var parts []string
	if e.Field != "" {
		parts = append(parts, e.Field)
	}
	if e.Value != "" {
		parts = append(parts, strconv.Quote(e.Value))
	}
	msg := e.Msg
	switch {
	case msg == "" && e.Err != nil:
		msg = e.Err.Error()
	case e.Err != nil:
		msg += ": " + e.Err.Error()
	}
	if msg != "" {
		parts = append(parts, msg)
	}
	b.WriteString(strings.Join(parts, " "))
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ReadError) Unwrap() error { return e.Err }

// cellName names a cell in error messages and provenance.
func cellName(task, machine string) string {
	return fmt.Sprintf("task=%s machine=%s", task, machine)
}

// ThinCellsError lists every cell that has fewer samples than the fit requires and could not be
// filled from another machine type. Listing them all at once saves the user a fit-fix-refit loop
// per cell.
type ThinCellsError struct {
	Min   int         // the required minimum
	Cells []CellCount // the offending cells, in matrix order
}

// CellCount is a cell and the number of samples it has.
type CellCount struct {
	TaskType, MachineType string
	Samples               int
}

func (e *ThinCellsError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d cell(s) have fewer than %d samples:", len(e.Cells), e.Min)
	for i, c := range e.Cells {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s (%d)", cellName(c.TaskType, c.MachineType), c.Samples)
	}
	return b.String()
}

// Fewest is the number of samples of the thinnest cell listed (Min when none is): a minimum of
// at most that many, given to the fit, lets every cell be fitted from what it has.
func (e *ThinCellsError) Fewest() int {
	least := e.Min
	for _, c := range e.Cells {
		least = min(least, c.Samples)
	}
	return least
}
