package petbuild

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// withRowCount returns the Parquet file b with the row count of its footer set to n. The footer
// is the thrift-compact FileMetaData just before the last 8 bytes (its length, then "PAR1").
func withRowCount(t *testing.T, b []byte, n int64) []byte {
	t.Helper()
	end := len(b) - 8
	start := end - int(binary.LittleEndian.Uint32(b[end:]))
	var md format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), b[start:end], &md); err != nil {
		t.Fatal(err)
	}
	md.NumRows = n
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		t.Fatal(err)
	}
	out := append(append([]byte(nil), b[:start]...), footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	out = append(out, "PAR1"...)
	// The rewritten file must open and claim n rows, or the test below proves nothing.
	pf, err := parquet.OpenFile(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatalf("rewritten footer: %v", err)
	}
	if pf.NumRows() != n {
		t.Fatalf("rewritten footer claims %d rows, want %d", pf.NumRows(), n)
	}
	return out
}

// TestReadParquetRowClaim: a file may claim up to maxParquetRows = 2^27 rows in its footer. One
// real row under a footer claiming 2^27 reads as that row; a claim of 2^27 + 1 is refused before
// any row is read.
func TestReadParquetRowClaim(t *testing.T) {
	one := []byte(writeParquet(t, []parquetRow{{"a", "x", 2, 1}}, nil))
	p, err := decode(withRowCount(t, one, 1<<27), FormatParquet, ReadOptions{})
	if err != nil {
		t.Fatalf("a claim of 2^27 rows: %v", err)
	}
	if p.NumTaskTypes() != 1 || p.NumMachineTypes() != 1 || p.Cell(0, 0).Mean() != 2 {
		t.Errorf("a claim of 2^27 rows: %d×%d PET, mean %v; want the one row's 1×1, mean 2", p.NumTaskTypes(), p.NumMachineTypes(), p.Cell(0, 0).Mean())
	}
	_, err = decode(withRowCount(t, one, 1<<27+1), FormatParquet, ReadOptions{})
	if want := "read mem.parquet: claims 134217729 rows; the limit is 134217728"; err == nil || err.Error() != want {
		t.Errorf("a claim of 2^27+1 rows: error %v, want %q", err, want)
	}
}

// oneProvenance is provenance metadata for one cell. The reader counts a file's provenance
// entries against its cells just after the limit on cells, before it lays a cell out: the tests
// of that limit use it to end the read of a file within the limit there, at no cost.
const oneProvenance = `[{"task_type":"t0","machine_type":"m0","samples":1,"deficit":0,"cut_mass":0,"binning":"b"}]`

// typeListFile is a one-row Parquet PET (task t0 on machine m0, time 1, probability 1) with
// oneProvenance, whose metadata lists tasks × machines type names t0, t1, … and m0, m1, …
func typeListFile(t *testing.T, tasks, machines int) []byte {
	t.Helper()
	meta := map[string]string{pqKeyProvenance: oneProvenance}
	for key, n := range map[string]struct {
		prefix string
		n      int
	}{pqKeyTaskTypes: {"t", tasks}, pqKeyMachineTypes: {"m", machines}} {
		b, err := json.Marshal(names(n.prefix, n.n))
		if err != nil {
			t.Fatal(err)
		}
		meta[key] = string(b)
	}
	return []byte(writeParquet(t, []parquetRow{{"t0", "m0", 1, 1}}, meta))
}

// TestReadParquetTypeListLimit: the metadata's type lists may make up to maxCells = 2^20 cells.
// 1024 × 1024 = 2^20 passes the limit, and the one provenance entry is then counted against
// those 1048576 cells; 1025 × 1024 = 1049600 cells are refused as the metadata's fault.
func TestReadParquetTypeListLimit(t *testing.T) {
	_, err := decode(typeListFile(t, 1024, 1024), FormatParquet, ReadOptions{})
	if want := "read mem.parquet: metadata provenance has 1 entries for 1048576 cells"; err == nil || err.Error() != want {
		t.Errorf("1024×1024 types: error %v, want %q", err, want)
	}
	for _, c := range [][2]int{{1025, 1024}, {1024, 1025}} {
		_, err := decode(typeListFile(t, c[0], c[1]), FormatParquet, ReadOptions{})
		if want := "read mem.parquet: metadata more than 1048576 cells"; err == nil || err.Error() != want {
			t.Errorf("%d×%d types: error %v, want %q", c[0], c[1], err, want)
		}
	}
}

// TestReadParquetFoundTypesLimit: without type lists the types are those the rows name, and
// they too may make up to 2^20 cells, though far fewer are filled. Rows in an L, task t0 on
// machines m0…m(k−1) and tasks t1…t(k−1) on m0, name k task and k machine types in 2k − 1 rows.
// At k = 1024 that is 2^20 cells, within the limit (the one provenance entry is then counted
// against them); at k = 1025, 1025² = 1050625 cells are over it.
func TestReadParquetFoundTypesLimit(t *testing.T) {
	ell := func(k int) []byte {
		rows := []parquetRow{}
		for j := range k {
			rows = append(rows, parquetRow{"t0", fmt.Sprint("m", j), 1, 1})
		}
		for i := 1; i < k; i++ {
			rows = append(rows, parquetRow{fmt.Sprint("t", i), "m0", 1, 1})
		}
		return []byte(writeParquet(t, rows, map[string]string{pqKeyProvenance: oneProvenance}))
	}
	_, err := decode(ell(1024), FormatParquet, ReadOptions{})
	if want := "read mem.parquet: metadata provenance has 1 entries for 1048576 cells"; err == nil || err.Error() != want {
		t.Errorf("1024×1024 types found: error %v, want %q", err, want)
	}
	_, err = decode(ell(1025), FormatParquet, ReadOptions{})
	if want := "read mem.parquet: more than 1048576 cells"; err == nil || err.Error() != want {
		t.Errorf("1025×1025 types found: error %v, want %q", err, want)
	}
}

// readLimited reads rows written as Parquet under limits lower than ReadParquet's (the tests
// above show its limit on cells in their messages).
func readLimited(t *testing.T, lim pqLimits, rows ...parquetRow) (*PET, error) {
	t.Helper()
	b := []byte(writeParquet(t, rows, nil))
	return readParquet(bytes.NewReader(b), int64(len(b)), "mem.parquet", ReadOptions{}, lim)
}

// TestReadParquetCellLimit: the reader holds at most its limit of distinct cells (3 here). Rows
// of three cells, one of them twice, read; the row that opens a fourth cell is refused by its
// number, before the rest of the file is read.
func TestReadParquetCellLimit(t *testing.T) {
	lim := pqLimits{cells: 3, cellRows: maxCellImpulses}
	three := []parquetRow{{"a", "x", 1, 0.5}, {"b", "x", 1, 1}, {"c", "x", 1, 1}, {"a", "x", 2, 0.5}}
	p, err := readLimited(t, lim, three...)
	if err != nil {
		t.Fatalf("3 cells: %v", err)
	}
	if p.NumTaskTypes() != 3 || p.Cell(0, 0).Mean() != 1.5 {
		t.Errorf("3 cells: %d task types, cell a,x mean %v; want 3 and (1+2)/2 = 1.5", p.NumTaskTypes(), p.Cell(0, 0).Mean())
	}
	_, err = readLimited(t, lim, append(three, parquetRow{"d", "x", 1, 1}, parquetRow{"e", "x", 1, 1})...)
	if want := "read mem.parquet row 5: more than 3 cells"; err == nil || err.Error() != want {
		t.Errorf("a fourth cell at row 5: error %v, want %q", err, want)
	}
}

// TestReadParquetCellRowLimit: a cell may have at most its limit of rows (3 here): a cell of 3
// rows reads; the fourth row of a cell is refused, naming the row and the cell, before the
// cell's times are laid out.
func TestReadParquetCellRowLimit(t *testing.T) {
	lim := pqLimits{cells: maxCells, cellRows: 3}
	three := []parquetRow{{"a", "x", 1, 0.25}, {"b", "x", 1, 1}, {"a", "x", 2, 0.25}, {"a", "x", 3, 0.5}}
	p, err := readLimited(t, lim, three...)
	if err != nil {
		t.Fatalf("3 rows: %v", err)
	}
	if d := p.Cell(0, 0); d.Len() != 3 || d.Mean() != 2.25 {
		t.Errorf("3 rows: %d impulses, mean %v; want 3 and 0.25·1 + 0.25·2 + 0.5·3 = 2.25", d.Len(), d.Mean())
	}
	_, err = readLimited(t, lim, append(three, parquetRow{"a", "x", 4, 0})...)
	if want := "read mem.parquet row 5: cell task=a machine=x: has more than 3 rows"; err == nil || err.Error() != want {
		t.Errorf("a fourth row of a cell at row 5: error %v, want %q", err, want)
	}
}

// TestReadParquetManyRows: a row group of more rows than the reader takes at a time (256) is
// read whole. 512 rows at times 0…511, each of probability 1/512 (exact), make one cell whose
// mean is (0 + 511)/2 = 255.5.
func TestReadParquetManyRows(t *testing.T) {
	rows := make([]parquetRow, 512)
	for i := range rows {
		rows[i] = parquetRow{"a", "x", float64(i), 1.0 / 512}
	}
	p, err := decode([]byte(writeParquet(t, rows, nil)), FormatParquet, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := p.Cell(0, 0); d.Len() != 512 || d.Prob(511) != 1.0/512 || d.Mean() != 255.5 {
		t.Errorf("cell of %d impulses, last %v, mean %v; want 512, 1/512, 255.5", d.Len(), d.Prob(511), d.Mean())
	}
}

// TestReadParquetProvenanceSamples: a cell's provenance may count 0 samples (unknown, as for
// .etc input), not fewer.
func TestReadParquetProvenanceSamples(t *testing.T) {
	read := func(samples int) (*PET, error) {
		prov := fmt.Sprintf(`[{"task_type":"a","machine_type":"x","samples":%d,"deficit":0,"cut_mass":0,"binning":"b"}]`, samples)
		b := writeParquet(t, []parquetRow{{"a", "x", 2, 1}}, map[string]string{pqKeyProvenance: prov})
		return decode([]byte(b), FormatParquet, ReadOptions{})
	}
	p, err := read(0)
	if err != nil {
		t.Fatalf("0 samples: %v", err)
	}
	if pv := p.Provenance(0, 0); pv.Samples != 0 || pv.Binning != "b" {
		t.Errorf("0 samples: provenance %+v, want 0 samples, binning b", pv)
	}
	_, err = read(-1)
	if want := "read mem.parquet: metadata provenance[0] has a negative count or a non-finite mass or sample moment"; err == nil || err.Error() != want {
		t.Errorf("-1 samples: error %v, want %q", err, want)
	}
}
