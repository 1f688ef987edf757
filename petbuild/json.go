package petbuild

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// The native format. Version 1:
//
//	{"format": "hcreplay-pet", "version": 1, "time_unit": "ms", "step": 2,
//	 "task_types": ["0", ...], "machine_types": ["0", ...],
//	 "cells": [{"task_type": "0", "machine_type": "0", "origin": 2, "probs": [...],
//	            "samples": 500, "deficit": 0, "cut_mass": 0, "filled_from": "", "sample_mean": 51.2,
//	            "sample_sd": 30.1, "binning": "..."}]}
//
// Cells are matched to the type lists by name, in any order. cut_mass, filled_from,
// sample_mean and sample_sd (those of the fitted samples) may be left out (zero). Unknown fields are ignored, so a later minor addition does not break old
// readers; anything that changes the meaning of a field bumps the version.
const (
	jsonFormat  = "hcreplay-pet"
	jsonVersion = 1
)

// maxJSONBytes bounds the size of a JSON PET read into memory.
const maxJSONBytes = 1 << 30

type jsonFile struct {
	Format       string     `json:"format"`
	Version      int        `json:"version"`
	TimeUnit     string     `json:"time_unit"`
	Step         float64    `json:"step"`
	TaskTypes    []string   `json:"task_types"`
	MachineTypes []string   `json:"machine_types"`
	Cells        []jsonCell `json:"cells"`
}

type jsonCell struct {
	TaskType    string    `json:"task_type"`
	MachineType string    `json:"machine_type"`
	Origin      float64   `json:"origin"`
	Probs       []float64 `json:"probs"`
	Samples     int       `json:"samples"`
	Deficit     float64   `json:"deficit"`
	CutMass     float64   `json:"cut_mass,omitempty"`
	FilledFrom  string    `json:"filled_from,omitempty"`
	SampleMean  float64   `json:"sample_mean,omitempty"`
	SampleSD    float64   `json:"sample_sd,omitempty"`
	Binning     string    `json:"binning"`
}

// ReadJSON reads a native JSON PET from r; name is used in error messages.
func ReadJSON(r io.Reader, name string, opt ReadOptions) (*PET, error) {
	return readJSON(r, name, opt, maxJSONBytes)
}

// readJSON is ReadJSON with the size limit given, so that a test can reach it without a
// gigabyte.
func readJSON(r io.Reader, name string, opt ReadOptions, limit int64) (*PET, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, &ReadError{File: name, Err: err}
	}
	if int64(len(data)) > limit {
		return nil, &ReadError{File: name, Msg: fmt.Sprintf("file is larger than %d bytes", limit)}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &ReadError{File: name, Msg: "file is empty"}
	}
	if err := checkJSONHeader(data, name); err != nil {
		return nil, err
	}
	if err := checkJSONKeys(data, name); err != nil {
		return nil, err
	}
	var f jsonFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, jsonError(data, name, err)
	}
	return f.pet(name, opt)
}

// jsonKeys are the keys a PET file's objects may have: the file's and its cells'.
var jsonKeys = map[string]bool{}

func init() {
	for _, t := range []reflect.Type{reflect.TypeFor[jsonFile](), reflect.TypeFor[jsonCell]()} {
		for f := range t.Fields() {
			if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag != "" && tag != "-" {
				jsonKeys[tag] = true
			}
		}
	}
}

// checkJSONKeys refuses a key that appears twice in one object (encoding/json keeps the last,
// silently) and a key a PET file does not have (encoding/json drops it, so "time_units": "s"
// would leave the PET in milliseconds without a word), naming the line (issue 49).
func checkJSONKeys(data []byte, name string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers are json.Unmarshal's to check
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next token of an object is a key
	}
	var stack []frame
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return jsonError(data, name, err)
		}
		top := len(stack) - 1
		if top >= 0 && stack[top].object && stack[top].key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:top]
				if top > 0 && stack[top-1].object {
					stack[top-1].key = true
				}
				continue
			}
			k := tok.(string)
			// off is where the decoder stood before the key: ahead of the comma and white space
			// that precede it, possibly on an earlier line. The key starts at the next quote.
			line := lineAt(data, off+int64(bytes.IndexByte(data[off:], '"')))
			if stack[top].keys[k] {
				return &ReadError{File: name, Line: line, Field: k, Msg: "appears twice in one object (which one is meant?)"}
			}
			if !jsonKeys[k] {
				return &ReadError{File: name, Line: line, Field: k, Msg: "is not a key of a PET file (a misspelling?)"}
			}
			stack[top].keys[k] = true
			stack[top].key = false
			continue
		}
		switch d, _ := tok.(json.Delim); d {
		case '{':
			stack = append(stack, frame{object: true, keys: map[string]bool{}, key: true})
			continue
		case '[':
			stack = append(stack, frame{})
			continue
		case ']':
			stack = stack[:top]
			top--
		}
		if top >= 0 && stack[top].object {
			stack[top].key = true // a value ended: a key comes next
		}
	}
}

// checkJSONHeader checks format and version before the full decode, so that a file of another
// version is reported as such rather than as whatever field no longer fits.
func checkJSONHeader(data []byte, name string) error {
	var head struct {
		Format  any `json:"format"`
		Version any `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field == "" {
			return &ReadError{File: name, Line: 1, Msg: "is not a JSON object (not a PET file?)"}
		}
		return jsonError(data, name, err)
	}
	if head.Format != jsonFormat {
		return &ReadError{File: name, Field: "format", Value: fmt.Sprint(head.Format),
			Msg: fmt.Sprintf("is not %q (not an hcreplay PET file)", jsonFormat)}
	}
	if v, ok := head.Version.(float64); !ok || v != jsonVersion {
		if head.Version == nil {
			return &ReadError{File: name, Field: "version", Msg: "is missing"}
		}
		return &ReadError{File: name, Field: "version", Value: fmt.Sprint(head.Version),
			Msg: fmt.Sprintf("is not supported (this build reads version %d)", jsonVersion)}
	}
	return nil
}

// jsonError turns an encoding/json error into a ReadError with the line of the offending byte.
func jsonError(data []byte, name string, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return &ReadError{File: name, Line: lineAt(data, se.Offset), Msg: "invalid JSON: " + se.Error()}
	case errors.As(err, &te):
		want := "a number"
		switch te.Type.Kind() {
		case reflect.String:
			want = "a string"
		case reflect.Slice:
			want = "an array"
		case reflect.Struct, reflect.Map:
			want = "an object"
		case reflect.Int:
			want = "an integer"
		}
		if n, ok := strings.CutPrefix(te.Value, "number "); ok {
			return &ReadError{File: name, Line: lineAt(data, te.Offset), Field: te.Field, Value: n, Msg: "is not " + want + " in range"}
		}
		return &ReadError{File: name, Line: lineAt(data, te.Offset), Field: te.Field, Msg: "is a JSON " + te.Value + ", want " + want}
	}
	return &ReadError{File: name, Err: err}
}

func lineAt(data []byte, offset int64) int {
	offset = max(0, min(offset, int64(len(data))))
	return bytes.Count(data[:offset], []byte("\n")) + 1
}

// pet validates the decoded file and assembles the matrix.
func (f *jsonFile) pet(name string, opt ReadOptions) (*PET, error) {
	fail := func(field, value, msg string) error {
		return &ReadError{File: name, Field: field, Value: value, Msg: msg}
	}
	if err := checkStep(f.Step); err != nil {
		return nil, fail(err.field, num(err.value), err.msg)
	}
	if len(f.TaskTypes) == 0 || len(f.MachineTypes) == 0 {
		return nil, fail("task_types/machine_types", "", "must both be non-empty")
	}
	ti, err := indexNames("task", f.TaskTypes)
	if err != nil {
		return nil, &ReadError{File: name, Err: err}
	}
	mi, err := indexNames("machine", f.MachineTypes)
	if err != nil {
		return nil, &ReadError{File: name, Err: err}
	}
	if len(f.TaskTypes)*len(f.MachineTypes) > maxCells {
		return nil, fail("cells", "", fmt.Sprintf("more than %d cells", maxCells))
	}
	raw := make([]*rawCell, len(f.TaskTypes)*len(f.MachineTypes))
	for i, c := range f.Cells {
		field := fmt.Sprintf("cells[%d]", i)
		t, ok := ti[c.TaskType]
		if !ok {
			return nil, fail(field+".task_type", c.TaskType, "is not in task_types")
		}
		m, ok := mi[c.MachineType]
		if !ok {
			return nil, fail(field+".machine_type", c.MachineType, "is not in machine_types")
		}
		k := t*len(f.MachineTypes) + m
		if raw[k] != nil {
			return nil, &ReadError{File: name, Cell: cellName(c.TaskType, c.MachineType), Field: field, Msg: "appears twice (also " + raw[k].field + ")"}
		}
		rc, err := c.raw(f.Step, field)
		if err != nil {
			err.File, err.Cell = name, cellName(c.TaskType, c.MachineType)
			return nil, err
		}
		raw[k] = rc
	}
	return assemble(name, f.TaskTypes, f.MachineTypes, f.TimeUnit, f.Step, raw, opt)
}

func (c *jsonCell) raw(step float64, field string) (*rawCell, *ReadError) {
	fail := func(sub, value, msg string) *ReadError {
		return &ReadError{Field: field + sub, Value: value, Msg: msg}
	}
	switch {
	case len(c.Probs) == 0:
		return nil, fail(".probs", "", "is empty")
	case len(c.Probs) > maxCellImpulses:
		return nil, fail(".probs", "", fmt.Sprintf("has more than %d impulses", maxCellImpulses))
	case c.Origin < 0:
		return nil, fail(".origin", num(c.Origin), "is negative")
	case !onLattice(c.Origin, step):
		return nil, fail(".origin", num(c.Origin), fmt.Sprintf("is not a whole multiple of the step %g", step))
	case c.Samples < 0:
		return nil, fail(".samples", strconv.Itoa(c.Samples), "is negative")
	case !(math.Abs(c.Deficit) < 1):
		return nil, fail(".deficit", num(c.Deficit), "is not in (-1, 1)")
	case !(c.CutMass >= 0 && c.CutMass <= 1):
		return nil, fail(".cut_mass", num(c.CutMass), "is not in [0, 1]")
	case !(c.SampleMean >= 0) || !finite(c.SampleMean):
		return nil, fail(".sample_mean", num(c.SampleMean), "is not a finite non-negative number")
	case !(c.SampleSD >= 0) || !finite(c.SampleSD):
		return nil, fail(".sample_sd", num(c.SampleSD), "is not a finite non-negative number")
	}
	for j, x := range c.Probs {
		if x < 0 {
			return nil, fail(fmt.Sprintf(".probs[%d]", j), num(x), "is negative")
		}
	}
	return &rawCell{
		origin:  c.Origin,
		weights: c.Probs,
		field:   field,
		prov: Provenance{Samples: c.Samples, Binning: c.Binning, Deficit: c.Deficit,
			CutMass: c.CutMass, FilledFrom: c.FilledFrom, SampleMean: c.SampleMean, SampleSD: c.SampleSD},
	}, nil
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// WriteJSON writes the PET in the native format: the header indented, one cell per line, and
// every float in the shortest form that reads back to the same float64, so that a round trip
// is lossless.
func WriteJSON(w io.Writer, p *PET) error {
	bw := bufio.NewWriter(w)
	field := func(key string, v any, comma bool) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "  %q: %s", key, b)
		if comma {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
		return nil
	}
	bw.WriteString("{\n")
	for _, kv := range []struct {
		k string
		v any
	}{
		{"format", jsonFormat}, {"version", jsonVersion}, {"time_unit", p.timeUnit}, {"step", p.step},
		{"task_types", p.taskTypes}, {"machine_types", p.machineTypes},
	} {
		if err := field(kv.k, kv.v, true); err != nil {
			return err
		}
	}
	bw.WriteString("  \"cells\": [\n")
	for i, c := range p.cells {
		jc := jsonCell{
			TaskType:    p.taskTypes[i/len(p.machineTypes)],
			MachineType: p.machineTypes[i%len(p.machineTypes)],
			Origin:      c.PMF.Origin(),
			Probs:       c.PMF.Probs(),
			Samples:     c.Provenance.Samples,
			Deficit:     c.Provenance.Deficit,
			CutMass:     c.Provenance.CutMass,
			FilledFrom:  c.Provenance.FilledFrom,
			SampleMean:  c.Provenance.SampleMean,
			SampleSD:    c.Provenance.SampleSD,
			Binning:     c.Provenance.Binning,
		}
		b, err := json.Marshal(jc)
		if err != nil {
			return err
		}
		bw.WriteString("    ")
		bw.Write(b)
		if i < len(p.cells)-1 {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
	}
	bw.WriteString("  ]\n}\n")
	return bw.Flush()
}
