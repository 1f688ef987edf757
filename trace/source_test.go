package trace

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
)

// makeZip writes a zip archive with the given members.
func makeZip(t *testing.T, path string, members map[string]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	names := make([]string, 0, len(members))
	for n := range members {
		names = append(names, n)
	}
	slices.Sort(names) // deterministic, and not the natural order
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(members[n])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestZipMembersAndGlobs(t *testing.T) {
	dir := t.TempDir()
	dat := func(arrival string) string { return "taskCount=1;\n" + arrival + " 0 100;\n" }
	makeZip(t, filepath.Join(dir, "set.zip"), map[string]string{
		"arr/x_1.dat":  dat("1"),
		"arr/x_2.dat":  dat("2"),
		"arr/x_10.dat": dat("10"),
		"arr/y_1.dat":  dat("7"),
		"logs/a.csv":   "# time_unit=s\ntask_type,machine_type,exec_time\na,m,2\n",
		"logs/b.jsonl": `{"task_type":"b","machine_type":"m","exec_time":3}` + "\n",
	})
	makeZip(t, filepath.Join(dir, "other.zip"), map[string]string{"arr/x_3.dat": dat("3")})
	z := filepath.Join(dir, "set.zip")

	srcs, err := Expand(z + "#arr/x_*.dat")
	if err != nil {
		t.Fatal(err)
	}
	var members []string
	for _, s := range srcs {
		members = append(members, s.Member)
		if s.Path != z || s.Name != z+"#"+s.Member {
			t.Errorf("source %+v", s)
		}
	}
	if got := strings.Join(members, " "); got != "arr/x_1.dat arr/x_2.dat arr/x_10.dat" {
		t.Errorf("members %s, want natural order 1 2 10", got)
	}

	trs, err := ReadTraces(z+"#arr/x_*.dat", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{1, 2, 10} {
		if trs[i].Tasks[0].Arrival != want {
			t.Errorf("trace %d arrives at %v, want %v", i, trs[i].Tasks[0].Arrival, want)
		}
	}

	// An exact member, a glob over archives, and formats by member name.
	if srcs, err := Expand(z + "#arr/y_1.dat"); err != nil || len(srcs) != 1 {
		t.Errorf("exact member: %v %v", srcs, err)
	}
	if srcs, err := Expand(filepath.Join(dir, "*.zip") + "#arr/x_*.dat"); err != nil || len(srcs) != 4 || srcs[0].Path != filepath.Join(dir, "other.zip") {
		t.Errorf("archive glob: %v %v", srcs, err)
	}
	logs, err := ReadLogs(z+"#logs/*", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) != 2 || logs[0].ExecTime != 2000 || logs[1].ExecTime != 3 {
		t.Errorf("logs %+v", logs)
	}

	// Open reads a member's bytes.
	srcs, err = Expand(z + "#logs/a.csv")
	if err != nil {
		t.Fatal(err)
	}
	rc, err := srcs[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(rc)
	if err != nil || !strings.HasPrefix(string(b), "# time_unit=s\n") {
		t.Errorf("Open: %q %v", b, err)
	}
	if err := rc.Close(); err != nil {
		t.Error(err)
	}

	for spec, want := range map[string]string{
		z + "#arr/z_*.dat":                      "matches no member",
		z + "#arr/none.dat":                     `has no member "arr/none.dat"`,
		z + "#x_2.dat":                          `has no member "x_2.dat"; did you mean "arr/x_2.dat"?`, // the folder left out
		z + "#x_*.dat":                          `matches no member of the archive; did you mean "arr/x_*.dat"?`,
		z + "#arr/x_3.dat":                      `; did you mean "arr/x_1.dat"?`, // nearest by edit distance (x_1 before x_2)
		z + "#arr/q_*.dat":                      "(members look like arr/x_1.dat, arr/x_2.dat, … logs/b.jsonl: 6 in all)",
		filepath.Join(dir, "missing.zip#a.dat"): "missing.zip",
		filepath.Join(dir, "*.nothing"):         "matches no file",
		z + "#arr/[":                            "bad glob",
	} {
		if _, err := Expand(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Expand(%q) = %v, want an error with %q", spec, err, want)
		}
	}
}

func TestFormatFromName(t *testing.T) {
	for name, want := range map[string]Format{
		"a.csv": CSV, "a.CSV.gz": CSV, "x/y.csv.zst": CSV, "a.jsonl": JSONL, "a.ndjson": JSONL,
		"a.jsonl.gz": JSONL, "a.parquet": Parquet, "arr19k_1.dat": Dat,
	} {
		if f, err := formatOf(name, ""); err != nil || f != want {
			t.Errorf("formatOf(%q) = %q, %v; want %q", name, f, err, want)
		}
	}
	for _, name := range []string{"a", "a.txt", "a.parquet.gz"} {
		if _, err := formatOf(name, ""); err == nil {
			t.Errorf("formatOf(%q) accepted", name)
		}
	}
	if f, err := formatOf("a.txt", "csv"); err != nil || f != CSV {
		t.Errorf("explicit format: %q %v", f, err)
	}
}

// TestExpandFolder checks that a folder expands to the trace files in it, in natural order,
// leaving out what is not a trace (a .json file, a README, a subfolder and what it holds), and
// that a folder with no trace file is refused with its name.
func TestExpandFolder(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"arr_10.dat", "arr_2.dat", "arr_1.dat", "b.csv.gz", "c.JSONL", "d.parquet", "e.csv.zst",
		"summary.json", "pet.json", "README.md", "notes", "f.pq", "g.tar.gz"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sub := filepath.Join(dir, "sub.dat") // a folder named like a trace
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "x.dat"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, err := Expand(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range srcs {
		if s.Path != s.Name || filepath.Dir(s.Path) != dir {
			t.Errorf("source %+v is not a file of %s", s, dir)
		}
		got = append(got, filepath.Base(s.Path))
	}
	if want := "arr_1.dat arr_2.dat arr_10.dat b.csv.gz c.JSONL d.parquet e.csv.zst"; strings.Join(got, " ") != want {
		t.Errorf("Expand(folder) = %s, want %s", strings.Join(got, " "), want)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Expand(empty); err == nil || !strings.Contains(err.Error(), empty) || !strings.Contains(err.Error(), "no file of a known format") {
		t.Errorf("Expand(empty folder) = %v", err)
	}
}

// TestExpandedZipReadsAsListed: the members of a zip glob are read from the archive as Expand
// listed them, each one concurrently with the others, once the file on disk has been replaced
// by another archive (renamed over it) and then removed: the Sources hold the archive Expand
// opened, rather than opening the path again for each member. A Source made by hand opens the
// path, and finds it gone.
func TestExpandedZipReadsAsListed(t *testing.T) {
	dir := t.TempDir()
	z := filepath.Join(dir, "set.zip")
	members := map[string]string{}
	for i := 1; i <= 8; i++ {
		members[fmt.Sprintf("arr/x_%d.dat", i)] = fmt.Sprintf("taskCount=1;\n%d 0 100;\n", i)
	}
	makeZip(t, z, members)
	srcs, err := Expand(z + "#arr/x_*.dat")
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.zip")
	makeZip(t, other, map[string]string{"arr/x_1.dat": "taskCount=1;\n99 0 100;\n"})
	if err := os.Rename(other, z); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(z); err != nil {
		t.Fatal(err)
	}
	arrivals := make([]float64, len(srcs))
	errs := make([]error, len(srcs))
	var wg sync.WaitGroup
	for i, s := range srcs {
		wg.Go(func() {
			tr, err := ReadTrace(s, ReadOptions{})
			if err == nil {
				arrivals[i] = tr.Tasks[0].Arrival
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i := range srcs {
		if errs[i] != nil || arrivals[i] != float64(i+1) {
			t.Errorf("%s: arrival %v, error %v; want %d as listed", srcs[i].Name, arrivals[i], errs[i], i+1)
		}
	}
	byHand := Source{Name: srcs[0].Name, Path: srcs[0].Path, Member: srcs[0].Member}
	if _, err := ReadTrace(byHand, ReadOptions{}); err == nil {
		t.Error("a Source made by hand read a removed archive")
	}
}

// TestExpandedZipKeepsLimits: a member of an archive Expand opened is still checked against the
// inflate limit before it is read.
func TestExpandedZipKeepsLimits(t *testing.T) {
	dir := t.TempDir()
	z := filepath.Join(dir, "big.zip")
	makeZip(t, z, map[string]string{"arr/x_1.dat": "taskCount=1;\n1 0 100;\n" + strings.Repeat(" \n", 1<<16)})
	srcs, err := Expand(z + "#arr/x_*.dat")
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadTrace(srcs[0], ReadOptions{Inflate: InflateLimit{MaxBytes: 1 << 10}})
	if err == nil || !strings.Contains(err.Error(), "max-inflate") {
		t.Errorf("a member that inflates past --max-inflate read with error %v", err)
	}
}

// TestExpandHoldsFewArchives: Expand keeps open at most maxHeldArchives archives, and only those
// with more than one member to read, so that a glob over many archives does not hold a file
// descriptor for each; every member reads alike either way.
func TestExpandHoldsFewArchives(t *testing.T) {
	dir := t.TempDir()
	n := maxHeldArchives + 2
	for i := range n {
		makeZip(t, filepath.Join(dir, fmt.Sprintf("a%03d.zip", i)), map[string]string{
			"arr/x_1.dat": fmt.Sprintf("taskCount=1;\n%d 0 100000;\n", 2*i+1),
			"arr/x_2.dat": fmt.Sprintf("taskCount=1;\n%d 0 100000;\n", 2*i+2),
		})
	}
	makeZip(t, filepath.Join(dir, "b.zip"), map[string]string{"arr/x_1.dat": "taskCount=1;\n7 0 100;\n"})
	srcs, err := Expand(filepath.Join(dir, "a*.zip") + "#arr/x_*.dat")
	if err != nil {
		t.Fatal(err)
	}
	held := map[*openedZip]bool{}
	for i, s := range srcs {
		if s.zip != nil {
			held[s.zip] = true
		}
		tr, err := ReadTrace(s, ReadOptions{})
		if err != nil || tr.Tasks[0].Arrival != float64(i+1) {
			t.Fatalf("%s: %v, %v", s.Name, tr, err)
		}
	}
	if len(srcs) != 2*n || len(held) != maxHeldArchives {
		t.Errorf("%d sources from %d archives, %d held open; want %d held", len(srcs), n, len(held), maxHeldArchives)
	}
	one, err := Expand(filepath.Join(dir, "b.zip") + "#arr/x_*.dat")
	if err != nil || len(one) != 1 || one[0].zip != nil {
		t.Errorf("an archive with one member to read: %v held %v", err, one)
	}
}

// TestSizedBuffersReadAlike reads traces of sizes around the buffers' (bufferFor sizes a
// buffer to a small file or zip member) from a regular file, a zip member and a gzip file, in
// each text format, and compares each with the same bytes read from memory through buffers of
// readAhead: the tasks and the error must not depend on the buffer. The gzip file's one long
// line inflates to four times readAhead from a few hundred bytes.
func TestSizedBuffersReadAlike(t *testing.T) {
	formats := map[string]struct {
		head, row string // row: id, filler, arrival
		fill      string // what pads a row: a type name, or a deadline's decimals in .dat
	}{
		"csv":   {"task_id,task_type,arrival\n", "%d,a%s,%d\n", "y"},
		"jsonl": {"", `{"task_id":%d,"task_type":"a%s","arrival":%d}` + "\n", "y"},
		"dat":   {"taskCount=%d;\n", "%[3]d 0 1000.0%[2]s;\n", "0"},
	}
	for ext, f := range formats {
		file := func(rows, fill int) string {
			var b strings.Builder
			if strings.Contains(f.head, "%d") {
				fmt.Fprintf(&b, f.head, rows)
			} else {
				b.WriteString(f.head)
			}
			for i := range rows {
				fmt.Fprintf(&b, f.row, i, strings.Repeat(f.fill, fill), i)
			}
			return b.String()
		}
		contents := []string{"", file(0, 0), file(1, 0), file(3, 0)[:40], file(2, 4*readAhead)}
		for _, size := range []int{64, 4096, readAhead - 1, readAhead, readAhead + 1} {
			contents = append(contents, file(1, size-len(file(1, 0))))
		}
		dir := t.TempDir()
		name := "x." + ext
		for k, content := range contents {
			want, werr := ReadTraceFrom(name, strings.NewReader(content), ReadOptions{})
			plain := filepath.Join(dir, fmt.Sprintf("p%d.%s", k, ext))
			if err := os.WriteFile(plain, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			z := filepath.Join(dir, fmt.Sprintf("z%d.zip", k))
			makeZip(t, z, map[string]string{name: content})
			gz := filepath.Join(dir, fmt.Sprintf("g%d.%s", k, ext))
			writeGzip(t, gz, content)
			for _, spec := range []string{plain, z + "#" + name, gz} {
				srcs, err := Expand(spec)
				if err != nil {
					t.Fatal(err)
				}
				got, err := ReadTrace(srcs[0], ReadOptions{})
				if (err == nil) != (werr == nil) || err != nil && !sameMessageTail(err, werr, ext) {
					t.Fatalf("%s content %d (%d bytes) from %s: error %v, from memory %v", ext, k, len(content), spec, err, werr)
				}
				if err == nil && !slices.EqualFunc(got.Tasks, want.Tasks, func(a, b Task) bool {
					return a.ID == b.ID && a.Type == b.Type && a.Arrival == b.Arrival
				}) {
					t.Fatalf("%s content %d (%d bytes) from %s: %d tasks differ from memory's %d", ext, k, len(content), spec, len(got.Tasks), len(want.Tasks))
				}
			}
		}
	}
}

// TestBufferFor pins the buffer sizes: a zip member's or a regular file's size and one byte,
// up to readAhead; readAhead for a reader of unknown size.
func TestBufferFor(t *testing.T) {
	dir := t.TempDir()
	open := func(size int) *os.File {
		p := filepath.Join(dir, fmt.Sprint(size))
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	for _, c := range []struct {
		r    io.Reader
		want int
	}{
		{open(0), 1}, {open(100), 101}, {open(readAhead - 1), readAhead}, {open(readAhead), readAhead}, {open(3 * readAhead), readAhead},
		{&zipMember{size: 0}, 1}, {&zipMember{size: 14531}, 14532}, {&zipMember{size: readAhead}, readAhead}, {&zipMember{size: 1 << 40}, readAhead},
		{strings.NewReader("abc"), readAhead}, {io.NopCloser(os.Stdin), readAhead},
	} {
		if got := bufferFor(c.r); got != c.want {
			t.Errorf("bufferFor(%T) = %d, want %d", c.r, got, c.want)
		}
	}
}

// sameMessageTail compares two read errors past their file names, which differ by source.
func sameMessageTail(a, b error, ext string) bool {
	cut := func(e error) string {
		s := e.Error()
		if i := strings.Index(s, "."+ext); i >= 0 {
			s = s[i+1+len(ext):]
		}
		return s
	}
	return cut(a) == cut(b)
}

func writeGzip(t *testing.T, path, content string) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDecompressPlainIsIdentity: text that is not compressed reads back as it was, whatever its
// length against the four bytes sniffed and however the source hands it out, and a source that

// failOnce fails its first read with err, then reads as empty: a source that does not repeat
// its error.
type failOnce struct {
	err  error
	done bool
}

func (f *failOnce) Read([]byte) (int, error) {
	if f.done {
		return 0, io.EOF
	}
	f.done = true
	return 0, f.err
}

// fails gives its bytes and then its error, before or after the sniffing's four.
func TestDecompressPlainIsIdentity(t *testing.T) {
	boom := errors.New("boom")
	for n := range 10 {
		text := "0123456789"[:n]
		for _, c := range []struct {
			name string
			r    io.Reader
			err  error
		}{
			{"whole", strings.NewReader(text), nil},
			{"a byte at a time", iotest.OneByteReader(strings.NewReader(text)), nil},
			{"then fails", io.MultiReader(strings.NewReader(text), iotest.ErrReader(boom)), boom},
			{"a byte at a time, then fails", io.MultiReader(iotest.OneByteReader(strings.NewReader(text)), iotest.ErrReader(boom)), boom},
			{"then fails once", io.MultiReader(strings.NewReader(text), &failOnce{err: boom}), boom},
		} {
			in, done, err := decompress(c.r, InflateLimit{}, 64)
			if err != nil {
				t.Fatalf("%q %s: %v", text, c.name, err)
			}
			got, err := io.ReadAll(in)
			done()
			if string(got) != text || err != c.err {
				t.Errorf("%q %s: read %q, %v; want %q, %v", text, c.name, got, err, text, c.err)
			}
		}
	}
}
