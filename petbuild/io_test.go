package petbuild

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
	"github.com/parquet-go/parquet-go"
)

// smallPET is a 2 × 3 PET with names, a non-default unit, a decimal step and provenance.
func smallPET(t testing.TB) *PET {
	t.Helper()
	step := 0.5
	var cells []Cell
	for i := range 6 {
		w := []float64{1, float64(i), 2, 0, 1}
		d, _, err := pmf.FromWeights(float64(i+1)*step, step, w)
		if err != nil {
			t.Fatal(err)
		}
		cells = append(cells, Cell{PMF: d, Provenance: Provenance{Samples: 100 + i, Binning: "test", Deficit: 0.001 * float64(i), CutMass: 0.01, FilledFrom: map[bool]string{true: "gpu"}[i == 5]}})
	}
	p, err := New([]string{"encode", "resize"}, []string{"cpu", "gpu", "arm, big"}, "s", cells)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRoundTripNamedPET(t *testing.T) {
	p := smallPET(t)
	for _, f := range []Format{FormatJSON, FormatParquet} {
		back, err := decode(encode(t, p, f), f, ReadOptions{})
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		samePET(t, p, back, true)
	}
	// .etc keeps the cells but names types by index and cannot carry the unit.
	back, err := decode(encode(t, p, FormatETC), FormatETC, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := back.MachineTypes(); !equalStrings(got, []string{"0", "1", "2"}) {
		t.Fatalf("etc machine types %v", got)
	}
	for i := range 2 {
		for j := range 3 {
			a, b := p.Cell(i, j), back.Cell(i, j)
			if a.Origin() != b.Origin() || a.Step() != b.Step() || !equalFloats(a.Probs(), b.Probs()) {
				t.Fatalf("etc cell (%d,%d): %v vs %v", i, j, a, b)
			}
		}
	}
}

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]Format{"a.json": FormatJSON, "b/C.PARQUET": FormatParquet, "x.etc": FormatETC} {
		if got, err := FormatOf(path); err != nil || got != want {
			t.Errorf("FormatOf(%q) = %v, %v", path, got, err)
		}
	}
	if _, err := FormatOf("pet.csv"); err == nil || !strings.Contains(err.Error(), ".csv") {
		t.Errorf("FormatOf(pet.csv) error %v", err)
	}
}

// TestWriteFileUnknownExtension: the extension picks the format; anything else is an error.
// (Atomicity is internal/atomicfile's, tested there.)
func TestWriteFileUnknownExtension(t *testing.T) {
	if err := WriteFile(filepath.Join(t.TempDir(), "pet.txt"), smallPET(t)); err == nil {
		t.Fatal("WriteFile accepts an unknown extension")
	}
}

type badCase struct {
	name  string
	input string
	want  []string // pieces the error text must contain
}

func checkBad(t *testing.T, f Format, cases []badCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := decode([]byte(c.input), f, ReadOptions{})
			if err == nil {
				t.Fatalf("no error; got %d×%d PET", p.NumTaskTypes(), p.NumMachineTypes())
			}
			t.Log(err)
			var re *ReadError
			if !errors.As(err, &re) {
				t.Fatalf("error %T %q is not a *ReadError", err, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

const etcHead = "machineCount=2;taskCount=1;\n"

func TestReadETCBad(t *testing.T) {
	checkBad(t, FormatETC, []badCase{
		{"empty", "", []string{"read mem.etc: file is empty"}},
		{"blank lines", "\r\n \n\n", []string{"file is empty"}},
		{"not a header", "hello\n", []string{"line 1", `"hello" is not a key=value pair`}},
		{"header lacks taskCount", "machineCount=2;\n", []string{"line 1", "lacks taskCount"}},
		{"header count not integer", "machineCount=x;taskCount=1;\n", []string{`machineCount "x" is not an integer`}},
		{"header zero count", "machineCount=0;taskCount=1;\n", []string{"positive machineCount"}},
		{"header huge", "machineCount=100000;taskCount=100000;\n", []string{"more than"}},
		{"unknown key", "machineCount=2;taskCount=1;foo=3;\n", []string{`key "foo" is unknown`}},
		{"probability not a number", etcHead + "machine=0;task=0;\n2\tabc\n", []string{"read mem.etc line 3: probability \"abc\" is not a number"}},
		{"time not a number", etcHead + "machine=0;task=0;\nx2\t0.5\n", []string{`line 3: time "x2" is not a number`}},
		{"time NaN", etcHead + "machine=0;task=0;\nNaN\t1\n", []string{`time "NaN" is not finite`}},
		{"negative probability", etcHead + "machine=0;task=0;\n2\t-0.5\n", []string{`probability "-0.5" is negative`}},
		{"negative time", etcHead + "machine=0;task=0;\n-2\t0.5\n", []string{`time "-2" is negative`}},
		{"three fields", etcHead + "machine=0;task=0;\n2\t0.5\t7\n", []string{"line 3", "is not a `time<TAB>probability` line"}},
		{"point before cell", etcHead + "2\t0.5\n", []string{"line 2", "comes before the first"}},
		{"machine out of range", etcHead + "machine=2;task=0;\n2\t1\n", []string{`machine "2" is out of range [0, 2)`}},
		{"missing cell", etcHead + "machine=0;task=0;\n2\t1\n", []string{"1 of 2 cells missing: task=0 machine=1"}},
		{"duplicate cell", etcHead + "machine=0;task=0;\n2\t1\nmachine=0;task=0;\n2\t1\n", []string{"line 4", "appears twice (first at line 2)"}},
		{"empty cell", etcHead + "machine=0;task=0;\nmachine=1;task=0;\n2\t1\n", []string{"line 2", "cell task=0 machine=0", "has no time"}},
		{"deficit too large", etcHead + "machine=0;task=0;\n2\t0.5\nmachine=1;task=0;\n2\t1\n", []string{"line 2", "cell task=0 machine=0", "deficit 0.5 exceeds the tolerance 0.01"}},
		{"mass too large", etcHead + "machine=0;task=0;\n2\t0.6\n4\t0.6\nmachine=1;task=0;\n2\t1\n", []string{"cell task=0 machine=0", "exceeds the tolerance"}},
		{"duplicate time", etcHead + "machine=0;task=0;\n2\t0.5\n2\t0.5\nmachine=1;task=0;\n2\t1\n", []string{"line 4", `time "2" appears twice in the cell`}},
		{"off lattice", etcHead + "machine=0;task=0;\n2\t0.5\n3.141592653589793\t0.5\nmachine=1;task=0;\n2\t1\n", []string{"line 4", `time "3.141592653589793" is not on a common step`}},
		{"time too large", etcHead + "machine=0;task=0;\n1e15\t1\nmachine=1;task=0;\n2e15\t1\n", []string{"mem.etc line 4", "cell task=0 machine=1", `origin "2e+15" exceeds 1e+15, the longest usable time`}},
		{"step too large", etcHead + "machine=0;task=0;\n2\t1\nmachine=1;task=0;\n1e300\t1\n", []string{"mem.etc", `step "1e+300" exceeds 1e+15`}},
		{"step too fine", etcHead + "machine=0;task=0;\n1e-300\t1\nmachine=1;task=0;\n2e-300\t1\n", []string{"mem.etc", `step "1e-300" is below 1e-09`}},
	})
}

func TestReadETCFixedStep(t *testing.T) {
	in := etcHead + "machine=0;task=0;\n2\t0.5\n7.5\t0.5\nmachine=1;task=0;\n4\t1\n"
	p, err := decode([]byte(in), FormatETC, ReadOptions{})
	if err != nil || p.Step() != 0.5 {
		t.Fatalf("inferred: %v, %v", p, err)
	}
	_, err = ReadETC(strings.NewReader(in), "x.etc", ReadOptions{Step: 2})
	if err == nil || !strings.Contains(err.Error(), `line 4: cell task=0 machine=0: time "7.5" is not a whole multiple of the step 2`) {
		t.Fatalf("fixed step error %v", err)
	}
	// A fixed step escapes the inference's own floor, so the grid limits are what stop a time
	// too many steps from 0 for the index arithmetic.
	far := etcHead + "machine=0;task=0;\n2\t1\nmachine=1;task=0;\n4000000000\t1\n"
	_, err = ReadETC(strings.NewReader(far), "x.etc", ReadOptions{Step: 2})
	if err == nil || !strings.Contains(err.Error(), `x.etc line 4: cell task=0 machine=1: origin "4e+09" is 2e+09 steps of 2 from 0`) {
		t.Fatalf("far time error %v", err)
	}
}

func TestReadETCLineEndings(t *testing.T) {
	want := etcHead + "machine=0;task=0;\n2\t0.25\n4\t0.75\nmachine=1;task=0;\n0\t1\n"
	a, err := decode([]byte(want), FormatETC, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string]string{
		"crlf with trailing blanks": strings.ReplaceAll(want, "\n", " \r\n"),
		"cr only":                   strings.ReplaceAll(want, "\n", "\r"),
		"spaces and bom":            "\ufeff" + strings.ReplaceAll(want, "\t", "   "),
	} {
		b, err := decode([]byte(in), FormatETC, ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		samePET(t, a, b, true)
	}
	if a.Step() != 2 || a.Cell(0, 1).Origin() != 0 {
		t.Fatalf("step %v origin %v", a.Step(), a.Cell(0, 1).Origin())
	}
}

const jsonOK = `{"format":"hcreplay-pet","version":1,"time_unit":"ms","step":2,"task_types":["a"],"machine_types":["x","y"],"cells":[
{"task_type":"a","machine_type":"x","origin":2,"probs":[0.5,0.5],"samples":3,"deficit":0,"binning":""},
{"task_type":"a","machine_type":"y","origin":4,"probs":[1],"samples":3,"deficit":0,"binning":""}]}`

func TestReadJSONBad(t *testing.T) {
	if _, err := decode([]byte(jsonOK), FormatJSON, ReadOptions{}); err != nil {
		t.Fatalf("the valid base case fails: %v", err)
	}
	sub := func(old, new string) string {
		if !strings.Contains(jsonOK, old) {
			t.Fatalf("test bug: %q not in the base case", old)
		}
		return strings.Replace(jsonOK, old, new, 1)
	}
	checkBad(t, FormatJSON, []badCase{
		{"empty", "  \n", []string{"read mem.json: file is empty"}},
		{"truncated", jsonOK[:100], []string{"invalid JSON"}},
		{"syntax error line", "{\n\"format\":\n}", []string{"line 3", "invalid JSON"}},
		{"array", "[1,2]", []string{"is not a JSON object"}},
		{"other format", sub(`"hcreplay-pet"`, `"other"`), []string{`format "other" is not "hcreplay-pet"`}},
		{"wrong version", sub(`"version":1`, `"version":2`), []string{`version "2" is not supported`}},
		{"version missing", sub(`"version":1,`, ``), []string{"version is missing"}},
		{"zero step", sub(`"step":2`, `"step":0`), []string{`step "0" is not a positive finite number`}},
		{"non-numeric probability", sub(`[0.5,0.5]`, `[0.5,"x"]`), []string{"line 2", "cells.probs is a JSON string, want a number"}},
		{"negative probability", sub(`[0.5,0.5]`, `[1.5,-0.5]`), []string{`cells[0].probs[1] "-0.5" is negative`}},
		{"unknown task type", sub(`"task_type":"a","machine_type":"y"`, `"task_type":"b","machine_type":"y"`), []string{`cells[1].task_type "b" is not in task_types`}},
		{"duplicate cell", sub(`"machine_type":"y"`, `"machine_type":"x"`), []string{"cell task=a machine=x", "appears twice"}},
		{"missing cell", sub(`"machine_types":["x","y"]`, `"machine_types":["x","y","z"]`), []string{"1 of 3 cells missing: task=a machine=z"}},
		{"origin off lattice", sub(`"origin":4`, `"origin":3`), []string{`cells[1].origin "3" is not a whole multiple of the step 2`}},
		{"deficit too large", sub(`[0.5,0.5]`, `[0.5,0.4]`), []string{"cell task=a machine=x", "exceeds the tolerance"}},
		{"empty probs", sub(`[0.5,0.5]`, `[]`), []string{"cells[0].probs is empty"}},
		{"duplicate type name", sub(`["x","y"]`, `["x","x"]`), []string{`machine type "x" appears twice`}},
		{"negative samples", sub(`"samples":3`, `"samples":-3`), []string{`cells[0].samples "-3" is negative`}},
		{"huge number", sub(`"origin":2`, `"origin":1e400`), []string{`cells.origin "1e400" is not a number in range`}},
		{"origin too large", sub(`"origin":4`, `"origin":1e300`), []string{"read mem.json", "cell task=a machine=y", `cells[1].origin "1e+300" exceeds 1e+15, the longest usable time`}},
		{"origin beyond the index range", sub(`"origin":4`, `"origin":4e9`), []string{"cell task=a machine=y", `cells[1].origin "4e+09" is 2e+09 steps of 2 from 0`}},
		{"support beyond the index range", sub(`"origin":2,"probs":[0.5,0.5]`, `"origin":2147483646,"probs":[0.5,0,0.5]`), []string{"cell task=a machine=x", `cells[0].last time "2.14748365e+09" is 1.074e+09 steps of 2 from 0`}},
		{"step too large", sub(`"step":2`, `"step":1e300`), []string{"read mem.json", `step "1e+300" exceeds 1e+15`}},
		{"step too fine", sub(`"step":2`, `"step":1e-300`), []string{"read mem.json", `step "1e-300" is below 1e-09`}},
	})
}

func TestReadJSONRenormalises(t *testing.T) {
	in := strings.Replace(jsonOK, `[0.5,0.5]`, `[0.5,0.497]`, 1)
	p, err := decode([]byte(in), FormatJSON, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := p.Provenance(0, 0).Deficit; d < 0.00299 || d > 0.00301 {
		t.Fatalf("deficit %v, want 0.003", d)
	}
	if _, err := decode([]byte(in), FormatJSON, ReadOptions{MaxDeficit: 0.001}); err == nil {
		t.Fatal("a deficit of 0.003 passes a tolerance of 0.001")
	}
}

// writeParquet writes rows of any struct type with the given metadata, for bad-input cases.
func writeParquet[T any](t testing.TB, rows []T, meta map[string]string) string {
	t.Helper()
	var opts []parquet.WriterOption
	for k, v := range meta {
		opts = append(opts, parquet.KeyValueMetadata(k, v))
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, opts...)
	if len(rows) > 0 {
		if _, err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestReadParquetBad(t *testing.T) {
	valid := string(encode(t, smallPET(t), FormatParquet))
	rows := func(rs ...parquetRow) []parquetRow { return rs }
	r := func(task, machine string, time, prob float64) parquetRow {
		return parquetRow{TaskType: task, MachineType: machine, Time: time, Prob: prob}
	}
	type noProb struct {
		TaskType    string  `parquet:"task_type"`
		MachineType string  `parquet:"machine_type"`
		Time        float64 `parquet:"time"`
	}
	type stringTime struct {
		TaskType    string  `parquet:"task_type"`
		MachineType string  `parquet:"machine_type"`
		Time        string  `parquet:"time"`
		Prob        float64 `parquet:"prob"`
	}
	two := map[string]string{pqKeyTaskTypes: `["a"]`, pqKeyMachineTypes: `["x","y"]`}
	checkBad(t, FormatParquet, []badCase{
		{"empty", "", []string{"read mem.parquet: file is empty"}},
		{"not parquet", "machineCount=8;taskCount=12;\n", []string{"not a readable Parquet file"}},
		{"truncated", valid[:len(valid)-40], []string{"not a readable Parquet file"}},
		{"header only", valid[:200], []string{"not a readable Parquet file"}},
		{"missing column", writeParquet(t, []noProb{{"a", "x", 2}}, nil), []string{`column "prob" is missing`}},
		{"string time", writeParquet(t, []stringTime{{"a", "x", "2", 1}}, nil), []string{`column "time" has type BYTE_ARRAY, want numeric`}},
		{"no rows", writeParquet(t, rows(), nil), []string{"file has no rows"}},
		{"negative prob", writeParquet(t, rows(r("a", "x", 2, 1.5), r("a", "x", 4, -0.5)), nil), []string{`row 2: prob "-0.5" is negative`}},
		{"negative time", writeParquet(t, rows(r("a", "x", -2, 1)), nil), []string{`row 1: time "-2" is negative`}},
		{"wrong version", writeParquet(t, rows(r("a", "x", 2, 1)), map[string]string{pqKeyVersion: "2"}), []string{`version "2" is not supported`}},
		{"bad step", writeParquet(t, rows(r("a", "x", 2, 1)), map[string]string{pqKeyStep: "abc"}), []string{`metadata step "abc" is not a positive number`}},
		{"missing cell", writeParquet(t, rows(r("a", "x", 2, 1)), two), []string{"1 of 2 cells missing: task=a machine=y"}},
		{"unlisted type", writeParquet(t, rows(r("a", "x", 2, 1), r("a", "z", 2, 1)), two), []string{`row 2: machine_type "z" is not in the metadata's type list`}},
		{"off step", writeParquet(t, rows(r("a", "x", 2, 0.5), r("a", "x", 3, 0.5)), map[string]string{pqKeyStep: "2"}), []string{"row 2", `time "3" is not a whole multiple of the step 2`}},
		{"off lattice", writeParquet(t, rows(r("a", "x", 2, 0.5), r("a", "x", 3.141592653589793, 0.5)), nil), []string{"row 2", "is not on a common step"}},
		// offStep looks for the bad time cell by cell, row-major: here it is only in the last
		// cell, (b, z), of a 2 × 3 file, and its row is named.
		{"off lattice in the last cell", writeParquet(t, rows(r("a", "x", 1, 1), r("a", "y", 1, 1), r("a", "z", 1, 1), r("b", "x", 1, 1), r("b", "y", 1, 1), r("b", "z", 3.141592653589793, 1)), nil),
			[]string{`read mem.parquet row 6: time "3.141592653589793" is not on a common step`}},
		{"duplicate time", writeParquet(t, rows(r("a", "x", 2, 0.5), r("a", "x", 2, 0.5)), nil), []string{"row 2", `time "2" appears twice in the cell`}},
		{"deficit", writeParquet(t, rows(r("a", "x", 2, 0.5)), nil), []string{"row 1", "cell task=a machine=x", "exceeds the tolerance"}},
		{"lz4", lz4File(t), []string{`column "task_type" uses compression LZ4_RAW`}},
		{"bad provenance", writeParquet(t, rows(r("a", "x", 2, 1)), map[string]string{pqKeyProvenance: "{"}), []string{"metadata provenance is not a JSON array"}},
		{"time too large", writeParquet(t, rows(r("a", "x", 1e300, 1)), map[string]string{pqKeyStep: "2"}), []string{"mem.parquet row 1", "cell task=a machine=x", `origin "1e+300" exceeds 1e+15`}},
		{"step too large", writeParquet(t, rows(r("a", "x", 2, 1)), map[string]string{pqKeyStep: "1e300"}), []string{`metadata step "1e300" exceeds 1e+15`}},
		{"inferred step too fine", writeParquet(t, rows(r("a", "x", 1e-300, 0.5), r("a", "x", 2e-300, 0.5)), nil), []string{"mem.parquet", `step "1e-300" is below 1e-09`}},
	})
}

func lz4File(t *testing.T) string {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[parquetRow](&buf, parquet.Compression(&parquet.Lz4Raw))
	if _, err := w.Write([]parquetRow{{"a", "x", 2, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestReadParquetForeign(t *testing.T) {
	// A long-form file from another tool: no metadata, rows in any order, zeros left out.
	in := writeParquet(t, []parquetRow{
		{"b", "y", 0.3, 0.5}, {"a", "x", 0.1, 1}, {"b", "x", 0.2, 1}, {"a", "y", 0.5, 0.25}, {"b", "y", 0.1, 0.5}, {"a", "y", 0.2, 0.75},
	}, nil)
	p, err := decode([]byte(in), FormatParquet, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Step() != 0.1 || !equalStrings(p.TaskTypes(), []string{"b", "a"}) || !equalStrings(p.MachineTypes(), []string{"y", "x"}) {
		t.Fatalf("step %v types %v × %v", p.Step(), p.TaskTypes(), p.MachineTypes())
	}
	if got := p.Cell(1, 0).Probs(); !equalFloats(got, []float64{0.75, 0, 0, 0.25}) {
		t.Fatalf("cell a,y probs %v", got)
	}
	checkCells(t, p)
}

func TestNewChecks(t *testing.T) {
	d := func(origin, step float64) pmf.PMF {
		x, err := pmf.New(origin, step, []float64{0.5, 0.5})
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	good := []Cell{{PMF: d(2, 2)}, {PMF: d(4, 2)}}
	if p, err := New([]string{"a"}, []string{"x", "y"}, "", good); err != nil || p.TimeUnit() != "ms" || p.Step() != 2 {
		t.Fatalf("valid PET: %v", err)
	}
	for name, c := range map[string]struct {
		tasks, machines []string
		cells           []Cell
		want            string
	}{
		"cell count":       {[]string{"a"}, []string{"x"}, good, "2 cells for 1 task types × 1 machine types"},
		"duplicate name":   {[]string{"a"}, []string{"x", "x"}, good, `machine type "x" appears twice`},
		"empty name":       {[]string{""}, []string{"x", "y"}, good, "empty name"},
		"no types":         {nil, []string{"x", "y"}, good, "no task types"},
		"mixed steps":      {[]string{"a"}, []string{"x", "y"}, []Cell{{PMF: d(2, 2)}, {PMF: d(4, 4)}}, "step 4 differs from the matrix step 2"},
		"off lattice":      {[]string{"a"}, []string{"x", "y"}, []Cell{{PMF: d(2, 2)}, {PMF: d(3, 2)}}, "origin 3 is not a whole number of steps"},
		"negative origin":  {[]string{"a"}, []string{"x", "y"}, []Cell{{PMF: d(2, 2)}, {PMF: d(-2, 2)}}, "negative"},
		"zero PMF":         {[]string{"a"}, []string{"x", "y"}, []Cell{{PMF: d(2, 2)}, {}}, "invalid pmf"},
		"origin too large": {[]string{"a"}, []string{"x", "y"}, []Cell{{PMF: d(2, 2)}, {PMF: d(2e15, 2)}}, "cell task=a machine=y: origin 2e+15 exceeds 1e+15"},
		"beyond the index": {[]string{"a"}, []string{"x", "y"}, []Cell{{PMF: d(2, 2)}, {PMF: d(4e9, 2)}}, "origin 4e+09 is 2e+09 steps of 2 from 0"},
		"step too large":   {[]string{"a"}, []string{"x", "y"}, []Cell{{PMF: d(0, 1e300)}, {PMF: d(0, 1e300)}}, "step 1e+300 exceeds 1e+15"},
		"step too fine":    {[]string{"a"}, []string{"x", "y"}, []Cell{{PMF: d(0, 1e-300)}, {PMF: d(0, 1e-300)}}, "step 1e-300 is below 1e-09"},
	} {
		if _, err := New(c.tasks, c.machines, "", c.cells); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
}

func TestSummary(t *testing.T) {
	p := smallPET(t)
	for i := range 2 {
		for j := range 3 {
			s, d := p.Summary(i, j), p.Cell(i, j)
			// Oracle: direct sums over the impulses.
			mean, sq, cum, p95 := 0.0, 0.0, 0.0, math.NaN()
			for k, x := range d.Probs() {
				tk := d.Origin() + float64(k)*d.Step()
				mean += x * tk
				sq += x * tk * tk
				if cum += x; math.IsNaN(p95) && cum >= 0.95 {
					p95 = tk
				}
			}
			sd := math.Sqrt(sq - mean*mean)
			if math.Abs(s.Mean-mean) > 1e-12 || math.Abs(s.StdDev-sd) > 1e-9 || s.P95 != p95 {
				t.Errorf("(%d,%d) summary %+v, oracle mean %v sd %v p95 %v", i, j, s, mean, sd, p95)
			}
			if s.TaskType != p.TaskType(i) || s.MachineType != p.MachineType(j) || s.Samples != 100+3*i+j {
				t.Errorf("(%d,%d) summary %+v", i, j, s)
			}
		}
	}
	if len(p.Summaries()) != 6 {
		t.Fatal("Summaries length")
	}
}

// TestTwoFieldsAsFields checks the .etc reader's split of a point line against strings.Fields,
// which it replaced, on random trimmed lines of digits, ASCII and Unicode spaces and invalid
// UTF-8: two fields exactly when Fields finds two, and the same two.
func TestTwoFieldsAsFields(t *testing.T) {
	alphabet := []string{"1", "2.5", "e", " ", "\t", "\v", "\f", "\r", "\u0085", "\u00a0", "\u2003", "\xff", "\xc2", "é", "\x7f", "\x01", "0.25\t3"}
	rng := rand.New(rand.NewPCG(3, 7))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		line := strings.TrimSpace(b.String())
		want := strings.Fields(line)
		first, second, ok := twoFields([]byte(line))
		if ok != (len(want) == 2) || ok && (string(first) != want[0] || string(second) != want[1]) {
			t.Fatalf("twoFields(%q) = %q, %q, %v; strings.Fields gives %q", line, first, second, ok, want)
		}
	}
}
