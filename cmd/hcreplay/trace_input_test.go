package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceCommandsBadInput: out-of-range or misplaced flags of trace gen,
// stats, convert and import exit 2 with a message naming the flag or value,
// and a refused trace gen leaves no folder behind.
func TestTraceCommandsBadInput(t *testing.T) {
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "2", "--machines", "2")
	tr := filepath.Join(dir, "t.csv")
	writeFile(t, tr, "task_type,arrival,deadline\n0,1,50\n1,2,60\n")
	swf := filepath.Join(dir, "a.swf")
	writeFile(t, swf, "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n")
	file := filepath.Join(dir, "file")
	writeFile(t, file, "")
	out := filepath.Join(dir, "gen")
	gen := func(args ...string) []string {
		return append([]string{"trace", "gen", "--pet", pet, "--out", out}, args...)
	}
	imp := func(args ...string) []string {
		return append([]string{"trace", "import", "--from", "swf", swf, "--out", filepath.Join(dir, "imp")}, args...)
	}
	cases := []badInputCase{
		{gen("--rate=1e308"), []string{"rate 1e+308"}},
		{gen("--rate=1e-308"), []string{"rate 1e-308"}},
		{gen("--rate=0"), []string{"--rate 0"}},
		{gen("--rate=-1"), []string{"--rate -1"}},
		{gen("--period=0"), []string{"--period 0"}},
		{gen("--period=1e308"), []string{"rate", "span"}},
		{gen("--deadline=prop:1e308"), []string{"--deadline", "prop:1e308"}},
		{gen("--deadline=slack:1e308"), []string{"--deadline", "slack:1e308"}},
		{gen("--deadline=urgency:min=-1"), []string{"--deadline", "min -1"}},
		{gen("--trials=999999999999"), []string{"--trials 999999999999"}},
		{gen("--trials=10001"), []string{"--trials 10001"}},
		{gen("--tasks=10000000", "--trials=101"), []string{"--trials 101", "tasks in all"}},
		{gen("--prefix=../../etc/x"), []string{"--prefix", "../../etc/x"}},
		{gen("--prefix=a/b"), []string{"--prefix", "a/b"}},
		{[]string{"trace", "gen", "--pet", pet, "--out", filepath.Join(file, "gen")}, []string{"--out"}},
		{[]string{"trace", "stats", tr, "--bins=999999999999"}, []string{"--bins 999999999999"}},
		{[]string{"trace", "stats", tr, "--bins=0"}, []string{"--bins 0"}},
		{[]string{"trace", "stats", tr, "--bins=-1"}, []string{"--bins -1"}},
		{[]string{"trace", "stats", tr, "--plot", filepath.Join(dir, "none", "x.png")}, []string{"--plot", "does not exist"}},
		{[]string{"trace", "convert", tr, filepath.Join(dir, "none", "x.csv")}, []string{"none", "does not exist"}},
		{imp("--samples=0"), []string{"--samples", "azure-functions"}},
		{imp("--samples=5"), []string{"--samples", "azure-functions"}},
		{[]string{"trace", "import", "--from", "swf", swf, "--out", filepath.Join(file, "imp")}, []string{"--out"}},
	}
	checkBadInput(t, cases, nil)
}

// TestTraceGenRateAndStatsBins: an explicit --rate names the files and sets
// the rate; the bounds of --bins are accepted.
func TestTraceGenRateAndStatsBins(t *testing.T) {
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "2", "--machines", "2")
	out := filepath.Join(dir, "gen")
	mustCLI(t, "trace", "gen", "--pet", pet, "--out", out, "--rate", "0.5", "--trials", "2", "--tasks", "50", "--format", "csv")
	files, _ := filepath.Glob(filepath.Join(out, "rate0.5_*.csv"))
	if len(files) != 2 {
		t.Fatalf("files %v, want rate0.5_1.csv and rate0.5_2.csv", files)
	}
	for _, bins := range []string{"1", "10000"} {
		mustCLI(t, "trace", "stats", files[0], "--bins", bins)
	}
}

// TestTraceGenOneFile: --out with a trace file's extension writes that one file, the same
// trial the folder form writes with the same flags (byte for byte, uncompressed); it needs
// --trials 1, a --format that agrees and no --prefix, and is refused otherwise with nothing
// written; a folder of such a name already there still takes the trials.
func TestTraceGenOneFile(t *testing.T) {
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "2", "--machines", "2")
	gen := func(out string, args ...string) []string {
		return append([]string{"trace", "gen", "--pet", pet, "--out", out, "--tasks", "40", "--seed", "3"}, args...)
	}
	refused := filepath.Join(dir, "refused.csv")
	checkBadInput(t, []badInputCase{
		{gen(refused), []string{"--out", "refused.csv", "--trials 30", "--trials 1"}},
		{gen(refused, "--trials", "2"), []string{"--trials 2"}},
		{gen(refused, "--trials", "1", "--format", "jsonl"), []string{"--format jsonl", "csv file"}},
		{gen(refused, "--trials", "1", "--prefix", "mine"), []string{"--prefix mine", "refused.csv", "folder"}},
	}, func(args []string, _, _ string) {
		if _, err := os.Stat(refused); err == nil {
			t.Errorf("%v: refused, but wrote %s", args, refused)
		}
	})
	for _, c := range []struct{ file, format string }{
		{"one.csv", "csv"},
		{"one.jsonl", "jsonl"},
		{"one.dat.gz", "dat"},
	} {
		folder := filepath.Join(dir, "folder-"+c.format)
		mustCLI(t, gen(folder, "--trials", "1", "--format", c.format)...)
		want, err := os.ReadFile(filepath.Join(folder, "arr19k_1."+c.format))
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, c.file)
		mustCLI(t, gen(file, "--trials", "1")...)
		got := readMaybeGzip(t, file)
		if string(got) != string(want) {
			t.Errorf("--out %s: %d bytes, want the folder form's %d", c.file, len(got), len(want))
		}
	}
	existing := filepath.Join(dir, "trials.csv")
	if err := os.Mkdir(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	mustCLI(t, gen(existing, "--trials", "2")...)
	if files, _ := filepath.Glob(filepath.Join(existing, "arr19k_*.dat")); len(files) != 2 {
		t.Errorf("folder %s holds %v, want two trials", existing, files)
	}
}

// readMaybeGzip reads a file, uncompressed when its name ends in .gz.
func readMaybeGzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b
}

// TestTraceImportSamples: --samples applies to azure-functions and sets the
// execution-time samples per duration row; out of range it is refused.
func TestTraceImportSamples(t *testing.T) {
	dir := t.TempDir()
	inv, row := "HashOwner,HashApp,HashFunction,Trigger", "o,a,f1,http"
	for m := 1; m <= 1440; m++ {
		inv += fmt.Sprintf(",%d", m)
		row += map[bool]string{true: ",3", false: ",0"}[m == 2]
	}
	files := map[string]string{
		"invocations_per_function_md.anon.d01.csv": inv + "\n" + row + "\n",
		"function_durations_percentiles.anon.d01.csv": "HashOwner,HashApp,HashFunction,Average,Count,Minimum,Maximum," +
			"percentile_Average_0,percentile_Average_1,percentile_Average_25,percentile_Average_50,percentile_Average_75,percentile_Average_99,percentile_Average_100\n" +
			"o,a,f1,50,20,10,100,10,12,30,50,70,98,100\n",
	}
	args := []string{"trace", "import", "--from", "azure-functions", "--out", filepath.Join(dir, "out"), "--force"} // each case replaces the last
	for name, body := range files {
		p := filepath.Join(dir, name)
		writeFile(t, p, body)
		args = append(args, p)
	}
	cases := []struct {
		samples string
		code    int
		want    string // the log records in the summary, or a word of the error
	}{
		{"", 0, "20"}, // min(Count 20, default 100)
		{"--samples=2", 0, "2"},
		{"--samples=0", 2, "--samples 0"},
		{"--samples=-1", 2, "--samples -1"},
		{"--samples=999999999999", 2, "--samples 999999999999"},
	}
	for _, c := range cases {
		a := args
		if c.samples != "" {
			a = append(args[:len(args):len(args)], c.samples)
		}
		code, stdout, errb := cli(t, a...)
		switch {
		case code != c.code:
			t.Errorf("%s: exit %d, want %d\n%s", c.samples, code, c.code, errb)
		case code == 0 && summaryValue(stdout, "log records") != c.want:
			t.Errorf("%s: %s log records, want %s", c.samples, summaryValue(stdout, "log records"), c.want)
		case code != 0 && !strings.Contains(errb, c.want):
			t.Errorf("%s: message %q lacks %q", c.samples, errb, c.want)
		}
	}
}
