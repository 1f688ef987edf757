package trace

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/hcreplay/hcreplay/internal/natural"
)

// Format is a file format of execution logs and arrival traces.
type Format string

// The formats. Dat is the HCW19 arrival format (SPEC §4.4) and holds arrival
// traces only.
const (
	CSV     Format = "csv"
	JSONL   Format = "jsonl"
	Parquet Format = "parquet"
	Dat     Format = "dat"
)

// ParseFormat accepts "csv", "jsonl" (or "ndjson"), "parquet" and "dat".
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "csv":
		return CSV, nil
	case "jsonl", "ndjson", "json":
		return JSONL, nil
	case "parquet", "pq":
		return Parquet, nil
	case "dat", "hcw19":
		return Dat, nil
	}
	return "", fmt.Errorf("unknown format %q (want csv, jsonl, parquet or dat)", s)
}

// compression is a whole-file compression of a text format.
type compression string

const (
	noCompression compression = ""
	gzipped       compression = "gz"
	zstded        compression = "zst"
)

// splitExt splits a name like "a.csv.gz" into the format from its inner
// extension and the compression from its outer one.
func splitExt(name string) (Format, compression, error) {
	base := strings.ToLower(path.Base(filepath.ToSlash(name)))
	comp := noCompression
	switch {
	case strings.HasSuffix(base, ".gz"):
		comp, base = gzipped, strings.TrimSuffix(base, ".gz")
	case strings.HasSuffix(base, ".zst"):
		comp, base = zstded, strings.TrimSuffix(base, ".zst")
	}
	ext := path.Ext(base)
	if ext == "" {
		return "", comp, fmt.Errorf("cannot tell the format of %q from its extension; give the format explicitly", name)
	}
	f, err := ParseFormat(ext[1:])
	if err != nil {
		return "", comp, fmt.Errorf("cannot tell the format of %q from its extension: %w", name, err)
	}
	if f == Parquet && comp != noCompression {
		return "", comp, fmt.Errorf("%q: Parquet files compress internally; do not wrap them in .%s", name, comp)
	}
	return f, comp, nil
}

// NameFormat is the format a file name's extension implies (a.csv.gz: CSV).
func NameFormat(name string) (Format, error) {
	f, _, err := splitExt(name)
	return f, err
}

// formatOf returns the explicit format when given, else the one the name implies.
func formatOf(name string, explicit Format) (Format, error) {
	if explicit != "" {
		return ParseFormat(string(explicit))
	}
	if name == "-" { // the commands have no format flag: say what they can read
		return "", errors.New(`standard input ("-") has no name to tell its format from: save it to a file named .csv, .jsonl, .dat or .parquet (.gz or .zst for the text ones) and give that`)
	}
	f, _, err := splitExt(name)
	return f, err
}

// Source is one readable input: a file, a member of a zip archive, or standard
// input ("-").
type Source struct {
	Name   string // for messages: the path, or "archive.zip#member"
	Path   string // the file, or the archive holding Member
	Member string // the member inside the zip archive; "" for plain files

	// zip is the archive as Expand opened it to list its members, which reading a member
	// uses rather than opening the archive again; nil for a Source made by hand.
	zip *openedZip
}

// openedZip is an archive Expand opened, kept for reading its members: a set of trials reads
// one member per trial, and each opening parsed the whole directory again (HCW19's constant.zip,
// 511 members: 5% of the CPU of a 30-trial MM replay). Members are read concurrently (archive/zip
// allows it). Nothing closes the file by hand: once no Source holds it, the os.File's cleanup
// does.
type openedZip struct {
	zr      *zip.ReadCloser
	members map[string]*zip.File
}

// String returns the source's name.
func (s Source) String() string { return s.Name }

// Expand turns a source spec into a sorted list of sources. A spec is
//
//   - a path ("traces/a.csv") or "-" for standard input;
//   - a folder ("trials"): the files in it with a format's own extension (.dat, .csv,
//     .jsonl, .parquet; the text ones also .gz or .zst), as hcreplay trace gen writes them;
//     not its .json files or its subfolders (expandFolder);
//   - a glob ("traces/*.csv");
//   - a zip member ("constant.zip#arr/arr19k_1.dat");
//   - a glob inside zips ("constant.zip#arr/arr19k_*.dat"; the archive part
//     may be a glob too).
//
// Globs follow path.Match. The result is in natural order, so trial 2 comes
// before trial 10. A glob that matches nothing is an error, because an empty
// experiment is never what the user meant.
func Expand(spec string) ([]Source, error) {
	if spec == "-" {
		return []Source{{Name: "-", Path: "-"}}, nil
	}
	archive, member, inZip := splitZipSpec(spec)
	if !inZip {
		return expandFiles(spec)
	}
	archives, err := expandFiles(archive)
	if err != nil {
		return nil, err
	}
	var out []Source
	held := 0
	for _, a := range archives {
		got, err := expandMembers(a.Path, member, held < maxHeldArchives)
		if err != nil {
			return nil, err
		}
		if got[0].zip != nil {
			held++
		}
		out = append(out, got...)
	}
	return out, nil
}

// maxHeldArchives is how many archives one Expand keeps open for reading their members
// (openedZip): a glob over more archives opens the others again for each member, as it did
// before, rather than hold a file descriptor per archive until the run ends.
const maxHeldArchives = 64

// splitZipSpec splits "x.zip#member" at the '#' that follows ".zip".
func splitZipSpec(spec string) (archive, member string, ok bool) {
	i := strings.Index(strings.ToLower(spec), ".zip#")
	if i < 0 {
		return "", "", false
	}
	return spec[:i+4], spec[i+5:], true
}

func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[") }

func expandFiles(spec string) ([]Source, error) {
	if !hasMeta(spec) {
		if st, err := os.Stat(spec); err == nil && st.IsDir() {
			return expandFolder(spec)
		}
		return []Source{{Name: spec, Path: spec}}, nil
	}
	matches, err := filepath.Glob(spec)
	if err != nil {
		return nil, fmt.Errorf("bad glob %q: %w", spec, err)
	}
	if len(matches) == 0 {
		return nil, fmt.Errorf("%q matches no file", spec)
	}
	slices.SortFunc(matches, natural.Compare)
	out := make([]Source, len(matches))
	for i, m := range matches {
		out[i] = Source{Name: m, Path: m}
	}
	return out, nil
}

// expandFolder lists the files of folder dir whose extension is a format's own (.dat, .csv,
// .jsonl, .parquet; the text ones also .gz or .zst), in natural order. Anything else in it (a
// README, a subfolder, a .json file, which is more often a PET or a summary than a trace) is
// left alone, so that a folder of trials reads as its trials; a folder with none is an error.
func expandFolder(dir string) ([]Source, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if HasTraceExtension(e.Name()) {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("folder %s holds no file of a known format (.dat, .csv, .jsonl, .parquet, or those .gz or .zst)", dir)
	}
	slices.SortFunc(names, natural.Compare)
	out := make([]Source, len(names))
	for i, n := range names {
		p := filepath.Join(dir, n)
		out[i] = Source{Name: p, Path: p}
	}
	return out, nil
}

// HasTraceExtension reports whether name ends in a format's own extension, compressed or not
// (a.csv, a.dat.gz), rather than one splitExt also accepts (a.json, a.pq): the names a folder
// is read for, and those hcreplay trace gen takes for one trace file rather than a folder.
func HasTraceExtension(name string) bool {
	f, comp, err := splitExt(name)
	if err != nil {
		return false
	}
	base := strings.ToLower(name)
	if comp != noCompression {
		base = strings.TrimSuffix(base, "."+string(comp))
	}
	return strings.HasSuffix(base, "."+string(f))
}

// expandMembers lists the members of archive that pattern matches, in natural order; with hold
// and more than one of them, the Sources keep the archive open for reading them (openedZip).
func expandMembers(archive, pattern string, hold bool) ([]Source, error) {
	zr, err := zip.OpenReader(archive)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", archive, err)
	}
	keep := false // the Sources hold the archive open once they list its members
	defer func() {
		if !keep {
			zr.Close()
		}
	}()
	if _, err := path.Match(pattern, ""); err != nil {
		return nil, fmt.Errorf("bad glob %q: %w", pattern, err)
	}
	var names, all []string
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		all = append(all, f.Name)
		if ok, _ := path.Match(pattern, f.Name); ok {
			names = append(names, f.Name)
		}
	}
	if len(names) == 0 {
		if hasMeta(pattern) {
			return nil, fmt.Errorf("%s#%s matches no member of the archive%s", archive, pattern, nearestMember(pattern, all))
		}
		return nil, fmt.Errorf("%s has no member %q%s", archive, pattern, nearestMember(pattern, all))
	}
	slices.SortFunc(names, natural.Compare)
	var opened *openedZip
	if hold && len(names) > 1 {
		opened = &openedZip{zr: zr, members: make(map[string]*zip.File, len(names))}
		for _, f := range zr.File {
			if _, dup := opened.members[f.Name]; !dup { // the first of a name, as openMember's scan finds it
				opened.members[f.Name] = f
			}
		}
		keep = true
	}
	out := make([]Source, len(names))
	for i, n := range names {
		out[i] = Source{Name: archive + "#" + n, Path: archive, Member: n, zip: opened}
	}
	return out, nil
}

// nearestMember suggests what a member path or glob that names nothing may have meant: the same
// name in the folder that holds it ("arr19k_1.dat" is "arr/arr19k_1.dat"), else the member
// nearest by edit distance, else a few of the members. It returns "" for an empty archive.
func nearestMember(pattern string, members []string) string {
	if len(members) == 0 {
		return ""
	}
	members = slices.Clone(members)
	slices.SortFunc(members, natural.Compare) // ties go to the first in natural order, whatever the zip's order
	base := path.Base(pattern)
	for _, m := range members {
		if ok, _ := path.Match(base, path.Base(m)); ok && path.Dir(m) != path.Dir(pattern) {
			return fmt.Sprintf("; did you mean %q?", path.Join(path.Dir(m), base))
		}
	}
	if !hasMeta(pattern) {
		best, bestD := "", len(pattern)/3+1 // farther than a third of the name is no suggestion
		for _, m := range members {
			if d := editDistance(pattern, m); d < bestD {
				best, bestD = m, d
			}
		}
		if best != "" {
			return fmt.Sprintf("; did you mean %q?", best)
		}
	}
	if n := len(members); n > 3 {
		return fmt.Sprintf(" (members look like %s, %s, … %s: %d in all)", members[0], members[1], members[n-1], n)
	}
	return " (members: " + strings.Join(members, ", ") + ")"
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// formatName is the name whose extension tells the format.
func (s Source) formatName() string {
	if s.Member != "" {
		return s.Member
	}
	return s.Path
}

// Open returns the source's content, gzip or zstd compression removed (it is
// recognised by its magic number), for other packages' formats that live in
// the same places (a PET .etc file inside a zip, say). Close it when done.
func (s Source) Open() (io.ReadCloser, error) {
	rc, err := s.OpenRaw()
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", s.Name, err)
	}
	r, done, err := decompress(rc, InflateLimit{}, bufferFor(rc))
	if err != nil {
		rc.Close()
		return nil, fmt.Errorf("open %s: %w", s.Name, err)
	}
	return &decompressed{Reader: r, done: done, raw: rc}, nil
}

type decompressed struct {
	io.Reader
	done func()
	raw  io.Closer
}

func (d *decompressed) Close() error {
	d.done()
	return d.raw.Close()
}

// OpenRaw opens the source's bytes as stored (no decompression), a zip member inflated and
// streamed, for readers of other packages that undo the compression themselves (the importers).
func (s Source) OpenRaw() (io.ReadCloser, error) {
	return s.openRawLimited(InflateLimit{})
}

// openRawLimited is OpenRaw refusing a zip member whose declared sizes lim does not allow
// (archive/zip refuses a member that inflates to more than it declares).
func (s Source) openRawLimited(lim InflateLimit) (io.ReadCloser, error) {
	if s.Path == "-" {
		return io.NopCloser(os.Stdin), nil
	}
	if s.Member == "" {
		return openRegular(s.Path)
	}
	zr, zf, err := s.openMember(lim)
	if err != nil {
		return nil, err
	}
	f, err := zf.Open()
	if err != nil {
		zr.Close()
		return nil, err
	}
	return &zipMember{ReadCloser: f, zr: zr, size: zf.UncompressedSize64}, nil
}

// openMember finds the member, checked against lim, in the archive Expand opened or else in the
// archive opened now; closing the returned closer releases the latter and leaves the former to
// the Sources that hold it.
func (s Source) openMember(lim InflateLimit) (io.Closer, *zip.File, error) {
	if s.zip != nil {
		f, ok := s.zip.members[s.Member]
		if !ok {
			return nil, nil, &fs.PathError{Op: "open", Path: s.Member, Err: fs.ErrNotExist}
		}
		if err := checkMember(f, lim); err != nil {
			return nil, nil, err
		}
		return io.NopCloser(nil), f, nil
	}
	zr, err := zip.OpenReader(s.Path)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range zr.File {
		if f.Name != s.Member {
			continue
		}
		if err := checkMember(f, lim); err != nil {
			zr.Close()
			return nil, nil, err
		}
		return zr, f, nil
	}
	zr.Close()
	return nil, nil, &fs.PathError{Op: "open", Path: s.Member, Err: fs.ErrNotExist}
}

// checkMember refuses a compressed member whose declared sizes lim does not allow (archive/zip
// refuses one that inflates to more than it declares).
func checkMember(f *zip.File, lim InflateLimit) error {
	if f.Method == zip.Store {
		return nil
	}
	return lim.check(int64(min(f.UncompressedSize64, 1<<62)), int64(min(f.CompressedSize64, 1<<62)))
}

type zipMember struct {
	io.ReadCloser
	zr   io.Closer
	size uint64 // as the archive declares it, which archive/zip holds the member to
}

func (z *zipMember) Close() error {
	return errors.Join(z.ReadCloser.Close(), z.zr.Close())
}

// openAt opens the source for random access, as Parquet needs. Plain files and stored zip
// members are used in place; deflated zip members and standard input are read into memory,
// as far as lim allows.
func (s Source) openAt(lim InflateLimit) (io.ReaderAt, int64, io.Closer, error) {
	if s.Member != "" {
		return s.openMemberAt(lim)
	}
	if s.Path != "-" {
		f, err := openRegular(s.Path)
		if err != nil {
			return nil, 0, nil, err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, nil, err
		}
		return f, st.Size(), f, nil
	}
	rc, err := s.OpenRaw()
	if err != nil {
		return nil, 0, nil, err
	}
	defer rc.Close()
	return inMemory(rc, lim)
}

// openMemberAt opens a zip member for random access: a stored one in place, a deflated one
// inflated into memory (its declared size checked against lim first).
func (s Source) openMemberAt(lim InflateLimit) (io.ReaderAt, int64, io.Closer, error) {
	zr, zf, err := s.openMember(lim)
	if err != nil {
		return nil, 0, nil, err
	}
	if zf.Method == zip.Store {
		off, err := zf.DataOffset()
		if err != nil {
			zr.Close()
			return nil, 0, nil, err
		}
		f, err := os.Open(s.Path)
		if err != nil {
			zr.Close()
			return nil, 0, nil, err
		}
		zr.Close()
		size := int64(zf.UncompressedSize64)
		return io.NewSectionReader(f, off, size), size, f, nil
	}
	defer zr.Close()
	rc, err := zf.Open()
	if err != nil {
		return nil, 0, nil, err
	}
	defer rc.Close()
	return inMemory(rc, lim)
}

// inMemory reads r into memory (readAllLimited) for random access.
func inMemory(r io.Reader, lim InflateLimit) (io.ReaderAt, int64, io.Closer, error) {
	b, err := readAllLimited(r, lim)
	if err != nil {
		return nil, 0, nil, err
	}
	return bytes.NewReader(b), int64(len(b)), io.NopCloser(nil), nil
}

// readAllLimited reads r into memory, refusing more than lim's MaxBytes.
func readAllLimited(r io.Reader, lim InflateLimit) ([]byte, error) {
	m := lim.maxBytes()
	if m < 0 {
		return io.ReadAll(r)
	}
	b, err := io.ReadAll(io.LimitReader(r, m+1))
	if err == nil && int64(len(b)) > m {
		return nil, lim.check(int64(len(b)), int64(len(b)))
	}
	return b, err
}

// fileKind names the type of a file that is not a regular one.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	}
	return "mode " + m.Type().String()
}

// bufferFor is the buffer to read r through: readAhead, or less when r is a regular file or a
// zip member known to be smaller. An HCW19 trial is 15 KB: its two 64 KiB buffers were most of
// what a 30-trial replay allocated, and fresh memory costs a page fault per 4 KiB (13 µs each
// on the 2-core test machine).
func bufferFor(r io.Reader) int {
	size := int64(-1)
	switch r := r.(type) {
	case *zipMember:
		size = int64(min(r.size, readAhead))
	case *os.File:
		if st, err := r.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	}
	if size < 0 || size >= readAhead {
		return readAhead
	}
	return int(size) + 1 // a read of the whole file, then one that finds its end
}

// openRegular opens a file for reading, refusing what is not a regular file (a FIFO, a
// device, a socket): reading one may block forever or never end. It is opened without
// blocking first, so that a FIFO without a writer does not hang the open itself.
func openRegular(path string) (*os.File, error) {
	f, err := openNonblock(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file (%s): give a regular file", path, fileKind(st.Mode()))
	}
	return f, nil
}

// decompress sniffs gzip and zstd magic numbers so that compressed text files are read
// whatever their name says, through a buffer of size bytes (bufferFor). What they inflate is
// bounded by lim. Text that is not compressed comes back unbuffered, to be buffered once by
// the caller: a buffer here as well had been a second copy of every trial a replay read (15 KB
// each of HCW19's, 0.45 MB of fresh pages in 30 trials).
func decompress(r io.Reader, lim InflateLimit, size int) (io.Reader, func(), error) {
	cr := &countingReader{r: r}
	in := sniff(cr)
	magic := in.head
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		zr, err := gzip.NewReader(bufio.NewReaderSize(in, size))
		if err != nil {
			return nil, nil, err
		}
		return &inflateGuard{r: zr, compressed: cr, lim: lim}, func() { zr.Close() }, nil
	case len(magic) == 4 && bytes.Equal(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		zr, err := zstd.NewReader(bufio.NewReaderSize(in, size))
		if err != nil {
			return nil, nil, err
		}
		return &inflateGuard{r: zr, compressed: cr, lim: lim}, zr.Close, nil
	}
	return in, func() {}, nil
}

// sniffed is a reader whose first bytes were read ahead to tell its format: it gives them
// back, then the error the reading ahead met, if any but the end, then reads on.
type sniffed struct {
	head []byte
	err  error
	r    io.Reader
	buf  [4]byte
}

// sniff reads r's first four bytes, fewer when r ends or fails before.
func sniff(r io.Reader) *sniffed {
	s := &sniffed{r: r}
	n, err := io.ReadFull(r, s.buf[:])
	if err != io.EOF && err != io.ErrUnexpectedEOF {
		s.err = err // a source need not repeat it: a trial cut short must not read as whole
	}
	s.head = s.buf[:n]
	return s
}

func (s *sniffed) Read(p []byte) (int, error) {
	if len(s.head) > 0 {
		n := copy(p, s.head)
		s.head = s.head[n:]
		return n, nil
	}
	if err := s.err; err != nil {
		s.err = nil
		return 0, err
	}
	return s.r.Read(p)
}
