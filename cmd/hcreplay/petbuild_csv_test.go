package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/petbuild"
)

// TestPETBuildCSVSameAsEncodingCSV checks that pet build's CSV reader (issue 50's fast path,
// parallel chunks) changes no PET: on generated logs that exercise the fast path's edges
// (CRLF, blank lines, spaces, quotes half-way, exponents, many digits), the PET pet build
// writes is byte for byte the PET fitted, with the same options, to the samples that
// encoding/csv and strconv read from the same file.
func TestPETBuildCSVSameAsEncodingCSV(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rows  int
		write func(rng *rand.Rand, typ, mach string, exec float64) string
	}{
		{"plain", 60000, func(_ *rand.Rand, typ, mach string, exec float64) string {
			return fmt.Sprintf("%s,%s,%s\n", typ, mach, strconv.FormatFloat(exec, 'f', 3, 64))
		}},
		{"crlf, blanks, spaces", 20000, func(rng *rand.Rand, typ, mach string, exec float64) string {
			blank := ""
			if rng.IntN(50) == 0 {
				blank = "\r\n"
			}
			return fmt.Sprintf("%s %s,  %s ,%s\r\n", blank, typ, mach, strconv.FormatFloat(exec, 'f', -1, 64))
		}},
		{"quotes half-way", 20000, func(rng *rand.Rand, typ, mach string, exec float64) string {
			if rng.IntN(1000) == 0 {
				return fmt.Sprintf("\"%s\",\"%s\",%g\n", typ, mach, exec)
			}
			return fmt.Sprintf("%s,%s,%g\n", typ, mach, exec)
		}},
		{"exponents and digits", 20000, func(rng *rand.Rand, typ, mach string, exec float64) string {
			s := strconv.FormatFloat(exec, 'e', -1, 64)
			if rng.IntN(2) == 0 {
				s = strconv.FormatFloat(exec*(1+1e-13), 'f', 19, 64)
			}
			return fmt.Sprintf("%s,%s,%s\n", typ, mach, s)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			log := filepath.Join(dir, "log.csv")
			rng := rand.New(rand.NewPCG(50, uint64(len(tc.name))))
			var b strings.Builder
			b.WriteString("task_type,machine_type,exec_time\n")
			for range tc.rows {
				exec := 20 + rng.ExpFloat64()*100
				b.WriteString(tc.write(rng, "type"+strconv.Itoa(rng.IntN(5)), "m"+strconv.Itoa(rng.IntN(3)), exec))
			}
			if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "pet.json")
			var stdout, stderr bytes.Buffer
			if code := run([]string{"-q", "pet", "build", log, "--out", out}, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if want := referencePET(t, log, dir); !bytes.Equal(got, want) {
				t.Fatalf("pet build's PET differs from the one fitted to encoding/csv's samples")
			}
		})
	}
}

// referencePET fits a PET, with pet build's default options, to the samples encoding/csv and
// strconv read from a log of columns task_type, machine_type, exec_time (in ms), and returns
// its JSON file.
func referencePET(t *testing.T, log, dir string) []byte {
	t.Helper()
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.TrimLeadingSpace = true
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(recs[0], []string{"task_type", "machine_type", "exec_time"}) {
		t.Fatalf("header %q", recs[0])
	}
	samples := make([]petbuild.Sample, 0, len(recs)-1)
	for _, rec := range recs[1:] {
		v, err := strconv.ParseFloat(strings.TrimSpace(rec[2]), 64)
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, petbuild.Sample{TaskType: strings.TrimSpace(rec[0]), MachineType: strings.TrimSpace(rec[1]), Time: v})
	}
	opt, err := petbuild.FitSpec{Binning: "fd", MinSamples: 30}.Options(flagOf) // pet build's defaults
	if err != nil {
		t.Fatal(err)
	}
	pet, err := petbuild.FitSlice(samples, opt)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "reference.json")
	if err := petbuild.WriteFile(path, pet); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
