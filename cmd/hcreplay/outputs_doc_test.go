package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
)

// outputsDoc is the reference of every column the tool writes.
const outputsDoc = "../../docs/outputs.md"

// docSection is one "## `FILE`" section of docs/outputs.md: the file's name (upper-case words
// stand for parts that vary, jobs-WORKLOAD-STRATEGY-SEED.csv) and the names in the first cell
// of its tables' rows.
type docSection struct {
	name    string
	match   *regexp.Regexp
	columns map[string]bool
}

var (
	sectionHeading = regexp.MustCompile("^## `([^`]+)`")
	columnRow      = regexp.MustCompile("^\\| `([^`]+)`")
	placeholder    = regexp.MustCompile("[A-Z]+")
)

func readOutputsDoc(t *testing.T) []*docSection {
	t.Helper()
	f, err := os.Open(outputsDoc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var secs []*docSection
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := sectionHeading.FindStringSubmatch(line); m != nil {
			parts := placeholder.Split(m[1], -1)
			for i := range parts {
				parts[i] = regexp.QuoteMeta(parts[i])
			}
			secs = append(secs, &docSection{name: m[1], match: regexp.MustCompile("^" + strings.Join(parts, ".+") + "$"), columns: map[string]bool{}})
			continue
		}
		if m := columnRow.FindStringSubmatch(line); m != nil && len(secs) > 0 {
			secs[len(secs)-1].columns[m[1]] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return secs
}

func sectionFor(secs []*docSection, file string) *docSection {
	for _, s := range secs {
		if s.match.MatchString(file) {
			return s
		}
	}
	return nil
}

// TestOutputsDocumented runs pet synth, trace gen, replay, sweep, report and speculate into
// folders, checks that every file they write has mode 0644, and that
// every data file they write (Parquet, CSV, JSON) has its section in docs/outputs.md, and that
// the columns the file holds are exactly those its section documents. It fails when a column
// is added without documentation (add a row to the file's table) or removed from the files
// but not from the document; a new file needs a new "## `NAME`" section.
func TestOutputsDocumented(t *testing.T) {
	secs := readOutputsDoc(t)
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	trials := filepath.Join(dir, "trials")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "2", "--machines", "2", "--samples", "100", "-q")
	mustCLI(t, "trace", "gen", "--pet", pet, "--out", trials, "--trials", "2", "--tasks", "60", "--level", "19k", "--format", "csv", "-q")
	mustCLI(t, "replay", "--pet", pet, "--trace", filepath.Join(trials, "*.csv"), "-H", "MM", "--prune", "both", "--trim", "5",
		"--out", filepath.Join(dir, "replay"), "--csv", "-q")
	grid := filepath.Join(dir, "grid.yaml")
	writeFile(t, grid, "pet: pet.json\nheuristics: [MM, PAM]\nprune: [none, both]\ntrim: [5]\nlevels:\n  - {name: 19k, trace: \"trials/*.csv\"}\n")
	mustCLI(t, "sweep", grid, "--out", filepath.Join(dir, "sweep"), "-q")
	mustCLI(t, "report", filepath.Join(dir, "sweep"), "--out", filepath.Join(dir, "report"), "--baseline", "MM",
		"--tables", "csv", "--formats", "svg", "-q")
	mustCLI(t, "speculate", "--rate", "1", "--horizon", "20", "--machines", "50", "-s", "none,SCA", "--out", filepath.Join(dir, "speculate"), "-q")

	runs := sectionFor(secs, "runs.parquet")
	if runs == nil {
		t.Fatalf("%s has no section for runs.parquet", outputsDoc)
	}
	checked := map[string]bool{}
	seen := map[*docSection]map[string]bool{} // the columns of every file of a section
	// The report's tables have a column per option and metric of runs.parquet, or of those
	// that vary, with a suffix per statistic: their sections document patterns.
	patterned := map[string]bool{"aggregate.csv": true, "summary.csv": true}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		top := strings.Split(filepath.ToSlash(rel), "/")[0]
		if info, err := d.Info(); err != nil || info.Mode().Perm() != atomicfile.Mode {
			t.Errorf("%s has mode %v, want %v like every output (internal/atomicfile)", rel, info.Mode().Perm(), atomicfile.Mode)
		}
		if top == "trials" || path == pet || path == grid {
			return nil // inputs, whose formats docs/formats of trace and PET cover
		}
		name := d.Name()
		var cols []string
		switch filepath.Ext(name) {
		case ".parquet":
			cols = parquetColumns(t, path)
		case ".csv":
			cols = csvColumns(t, path)
		case ".json":
			cols = nil // below, with the section: nested objects are flattened only where it says so
		default:
			return nil
		}
		sec := sectionFor(secs, name)
		if sec == nil {
			t.Errorf("%s (written by %s) has no section \"## `%s`\" in %s", rel, top, name, outputsDoc)
			return nil
		}
		if filepath.Ext(name) == ".json" {
			cols = jsonColumns(t, path, sec)
		}
		checked[sec.name] = true
		for _, c := range cols {
			switch {
			case sec.columns[c]:
			case patterned[sec.name] && aggregateColumn(c, runs, sec):
			default:
				t.Errorf("%s: column %q is written but not documented: add a row \"| `%s` | type | unit | meaning |\" to the section of %s in %s",
					rel, c, c, sec.name, outputsDoc)
			}
		}
		if seen[sec] == nil {
			seen[sec] = map[string]bool{}
		}
		for _, c := range cols {
			seen[sec][c] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A documented column must be in some file of its section: JSON files leave out some keys
	// (omitempty), so one file need not hold them all.
	for sec, cols := range seen {
		if patterned[sec.name] {
			continue // its patterns stand for many columns
		}
		for c := range sec.columns {
			if !cols[c] && !strings.Contains(c, "<") {
				t.Errorf("%s documents column %q of %s, which no file written has", outputsDoc, c, sec.name)
			}
		}
	}
	for _, name := range []string{"runs.parquet", "manifest.json", "tasks.parquet", "tasks.csv", "summary.json", "timing.json",
		"aggregate.csv", "summary.csv", "summaries.json", "jobs-WORKLOAD-STRATEGY-SEED.csv"} {
		if !checked[name] {
			t.Errorf("no file of section %s was written: the test's commands or the section's name are out of date", name)
		}
	}
}

// aggregateColumn accepts a column of the report's tables that is a runs.parquet column (an
// option), or a pattern of the table's section ("<metric>_mean", "diff_<metric>_<part>") with a
// runs.parquet column for <metric> and a documented part for <part>.
func aggregateColumn(c string, runs, agg *docSection) bool {
	if runs.columns[c] {
		return true
	}
	var parts []string
	for p := range agg.columns {
		if s, ok := strings.CutPrefix(p, "<metric>_"); ok {
			parts = append(parts, s)
		}
	}
	for m := range runs.columns {
		for _, p := range parts {
			if c == m+"_"+p || (agg.columns["diff_<metric>_<part>"] && c == "diff_"+m+"_"+p) {
				return true
			}
		}
	}
	return false
}

func parquetColumns(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	for _, fl := range pf.Schema().Fields() {
		cols = append(cols, fl.Name())
	}
	for _, key := range []string{"time_unit", "tool_version"} {
		if v, ok := pf.Lookup(key); !ok || v == "" {
			t.Errorf("%s: no %s in its key-value metadata", path, key)
		}
	}
	return cols
}

// csvColumns reads the header of a CSV file, after its first line, which must record the time
// unit and the version.
func csvColumns(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(b), "\n")
	if !strings.HasPrefix(first, "# ") || !strings.Contains(first, "tool_version=") {
		t.Errorf("%s: first line %q does not record the version (and time unit)", path, first)
	}
	header, err := csv.NewReader(strings.NewReader(rest)).Read()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return header
}

// jsonColumns lists the keys of a JSON object (or of the first object of an array), with a
// nested object's keys as "key.sub" unless sec documents the key itself.
func jsonColumns(t *testing.T, path string, sec *docSection) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if a, ok := v.([]any); ok && len(a) > 0 {
		v = a[0]
	}
	obj, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: not an object or an array of objects", path)
	}
	var cols []string
	var walk func(prefix string, o map[string]any)
	walk = func(prefix string, o map[string]any) {
		for k, val := range o {
			key := prefix + k
			if sub, ok := val.(map[string]any); ok && !sec.columns[key] {
				walk(key+".", sub)
				continue
			}
			cols = append(cols, key)
		}
	}
	walk("", obj)
	sort.Strings(cols)
	hasUnit := false
	for _, c := range cols {
		hasUnit = hasUnit || c == "time_unit"
	}
	if !hasUnit && !sec.columns["time_unit"] && filepath.Base(path) != "timing.json" {
		t.Errorf("%s: records no time_unit", path)
	}
	return cols
}
