package petbuild

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// rawETC is the test's own minimal .etc parser, sharing no code with the reader: it returns
// per (task, machine) the (time, probability) pairs as written.
func rawETC(t *testing.T, path string) map[[2]int][][2]float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[[2]int][][2]float64{}
	var cur [2]int
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "machine="):
			var m, task int
			if _, err := fmt.Sscanf(line, "machine=%d;task=%d;", &m, &task); err != nil {
				t.Fatalf("oracle parser: %q: %v", line, err)
			}
			cur = [2]int{task, m}
		case strings.Contains(line, "\t"):
			f := strings.Split(line, "\t")
			x, err1 := strconv.ParseFloat(f[0], 64)
			p, err2 := strconv.ParseFloat(f[1], 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("oracle parser: %q", line)
			}
			out[cur] = append(out[cur], [2]float64{x, p})
		}
	}
	return out
}

func TestClassesETC(t *testing.T) {
	path := hcw19File(t, "classes_2.etc")
	p, err := ReadFile(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.NumTaskTypes() != 12 || p.NumMachineTypes() != 8 || p.Step() != 2 || p.TimeUnit() != "ms" {
		t.Fatalf("got %d×%d step %v unit %q, want 12×8 step 2 ms", p.NumTaskTypes(), p.NumMachineTypes(), p.Step(), p.TimeUnit())
	}
	checkCells(t, p)
	raw := rawETC(t, path)
	if len(raw) != 96 {
		t.Fatalf("oracle found %d cells", len(raw))
	}
	for key, pts := range raw {
		sum, moment := 0.0, 0.0
		for _, pt := range pts {
			if math.Mod(pt[0], 2) != 0 {
				t.Errorf("cell %v: time %v is not a multiple of 2", key, pt[0])
			}
			sum += pt[1]
			moment += pt[0] * pt[1]
		}
		want := moment / sum
		got := p.Cell(key[0], key[1]).Mean()
		if math.Abs(got-want) > 1e-9*want {
			t.Errorf("cell %v: mean %v, oracle %v", key, got, want)
		}
		prov := p.Provenance(key[0], key[1])
		if math.Abs(prov.Deficit-(1-sum)) > 1e-12 {
			t.Errorf("cell %v: deficit %v, oracle %v", key, prov.Deficit, 1-sum)
		}
		if prov.Deficit < 0.0012 || prov.Deficit > 0.00365 {
			t.Errorf("cell %v: deficit %v outside 0.0012–0.0036", key, prov.Deficit)
		}
	}
	// The means range of reference/anchors.md §1.3: about 23 to 274.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range p.Summaries() {
		lo, hi = math.Min(lo, s.Mean), math.Max(hi, s.Mean)
		if !(s.P95 >= s.Mean && s.StdDev > 0 && s.Samples == 0) {
			t.Errorf("summary %+v", s)
		}
	}
	if math.Abs(lo-23.02) > 0.01 || math.Abs(hi-273.86) > 0.01 {
		t.Errorf("mean range [%v, %v], want about [23.02, 273.86]", lo, hi)
	}
}

func TestClassesRoundTrips(t *testing.T) {
	p, err := ReadFile(hcw19File(t, "classes_2.etc"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("etc", func(t *testing.T) {
		back, err := decode(encode(t, p, FormatETC), FormatETC, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		samePET(t, p, back, false)
	})
	t.Run("json-parquet-json", func(t *testing.T) {
		j1 := encode(t, p, FormatJSON)
		a, err := decode(j1, FormatJSON, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		samePET(t, p, a, true)
		b, err := decode(encode(t, a, FormatParquet), FormatParquet, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		samePET(t, p, b, true)
		j2 := encode(t, b, FormatJSON)
		if !bytes.Equal(j1, j2) {
			t.Fatal("JSON after the Parquet round trip differs from the first JSON")
		}
	})
	t.Run("files", func(t *testing.T) {
		dir := t.TempDir()
		for _, name := range []string{"pet.json", "pet.parquet", "pet.etc"} {
			path := filepath.Join(dir, name)
			if err := WriteFile(path, p); err != nil {
				t.Fatal(err)
			}
			back, err := ReadFile(path, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			samePET(t, p, back, name != "pet.etc")
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 3 {
			t.Fatalf("temporary files left behind: %v", entries)
		}
	})
}

func TestHomoETC(t *testing.T) {
	p, err := ReadFile(hcw19File(t, "homo_2.etc"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkCells(t, p)
	// Homogeneous: every machine type has the same PMF for a task type.
	for i := range p.NumTaskTypes() {
		for j := 1; j < p.NumMachineTypes(); j++ {
			if math.Abs(p.Cell(i, j).Mean()-p.Cell(i, 0).Mean()) > 1e-9 {
				t.Errorf("task %d: machine %d mean %v, machine 0 mean %v", i, j, p.Cell(i, j).Mean(), p.Cell(i, 0).Mean())
			}
		}
	}
}

func TestTypeAndGlobalMean(t *testing.T) {
	path := hcw19File(t, "classes_2.etc")
	p, err := ReadFile(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	raw := rawETC(t, path)
	global := 0.0
	for task := range 12 {
		rowMean := 0.0
		for m := range 8 {
			sum, moment := 0.0, 0.0
			for _, pt := range raw[[2]int{task, m}] {
				sum += pt[1]
				moment += pt[0] * pt[1]
			}
			rowMean += moment / sum / 8
		}
		if got := p.TypeMean(task); math.Abs(got-rowMean) > 1e-9*rowMean {
			t.Errorf("TypeMean(%d) = %v, oracle %v", task, got, rowMean)
		}
		global += rowMean / 12
	}
	if got := p.GlobalMean(); math.Abs(got-global) > 1e-9*global {
		t.Errorf("GlobalMean = %v, oracle %v", got, global)
	}
}

// BenchmarkReadETC reads HCW19's 12×8 PET (112 KB, 7,000 lines), which every replay of the
// HCW19 trials reads first.
func BenchmarkReadETC(b *testing.B) {
	path := hcw19File(b, "classes_2.etc")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadFile(path, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
