package trace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"
)

// parquet-go trusts the sizes written in a file: a list length in the footer,
// a byte-string length in a page header, a page's uncompressed size or value
// count are allocated before anything checks them against the file, so a
// few hundred crafted bytes can make it allocate gigabytes and kill the
// process (found by FuzzReadParquet). These checks run first, on the footer
// when the file is opened and on the page headers of each column chunk
// before its pages are read, and turn such files into errors.
//
// The limits are far above what Parquet writers produce (pyarrow writes 1 MiB
// pages of at most 20,000 rows; parquet-go 256 KiB pages).
const (
	maxPageBytes  = 256 << 20
	maxPageValues = 16 << 20
	maxThriftNest = 64
)

var errCorruptThrift = errors.New("corrupt metadata")

// checkFooter validates the trailer and the structure of the footer.
func checkFooter(r io.ReaderAt, size int64) error {
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if string(tail[4:]) != "PAR1" {
		return fmt.Errorf("invalid magic footer %q", tail[4:])
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return fmt.Errorf("footer length %d exceeds the file size %d", n, size)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-8-n); err != nil {
		return err
	}
	w := thriftWalker{b: footer}
	if err := w.skipStruct(0); err != nil {
		return fmt.Errorf("footer: %w", err)
	}
	return nil
}

// checkChunkPages walks the page headers of one column chunk.
func checkChunkPages(r io.ReaderAt, size int64, md *format.ColumnMetaData) error {
	start := md.DataPageOffset
	if md.DictionaryPageOffset != 0 {
		start = md.DictionaryPageOffset
	}
	end := start + md.TotalCompressedSize
	if start < 4 || md.TotalCompressedSize < 0 || end > size || end < start {
		return fmt.Errorf("column chunk [%d, %d) outside the file", start, end)
	}
	var buf []byte
	for off := start; off < end; {
		hdr, n, err := readPageHeader(r, off, end, &buf)
		if err != nil {
			return err
		}
		if err := checkPageHeader(hdr, end-off-int64(n)); err != nil {
			return err
		}
		if err := checkPageData(r, off+int64(n), hdr, md.Codec); err != nil {
			return fmt.Errorf("page at byte %d: %w", off, err)
		}
		off += int64(n) + int64(hdr.CompressedPageSize)
	}
	return nil
}

// readPageHeader decodes the page header at off, reading more of the chunk
// when a header (with large statistics) does not fit the first read.
func readPageHeader(r io.ReaderAt, off, end int64, buf *[]byte) (*format.PageHeader, int, error) {
	for want := int64(4 << 10); ; want *= 8 {
		want = min(want, end-off)
		if int64(cap(*buf)) < want {
			*buf = make([]byte, want)
		}
		b := (*buf)[:want]
		if _, err := r.ReadAt(b, off); err != nil && err != io.EOF {
			return nil, 0, err
		}
		w := thriftWalker{b: b}
		err := w.skipStruct(0)
		if err == io.ErrUnexpectedEOF && want < end-off {
			continue
		}
		if err != nil {
			return nil, 0, fmt.Errorf("page header at byte %d: %w", off, err)
		}
		hdr := new(format.PageHeader)
		if err := thrift.Unmarshal(new(thrift.CompactProtocol), b[:w.off], hdr); err != nil {
			return nil, 0, fmt.Errorf("page header at byte %d: %w", off, err)
		}
		return hdr, w.off, nil
	}
}

func checkPageHeader(h *format.PageHeader, left int64) error {
	var values int32
	switch {
	case h.DataPageHeader.Valid:
		values = h.DataPageHeader.V.NumValues
	case h.DataPageHeaderV2.Valid:
		values = h.DataPageHeaderV2.V.NumValues
	case h.DictionaryPageHeader.Valid:
		values = h.DictionaryPageHeader.V.NumValues
	}
	switch {
	case h.CompressedPageSize < 0 || int64(h.CompressedPageSize) > left:
		return fmt.Errorf("page of %d bytes overruns its column chunk", h.CompressedPageSize)
	case h.UncompressedPageSize < 0 || h.UncompressedPageSize > maxPageBytes:
		return fmt.Errorf("page of %d bytes uncompressed exceeds the %d-byte limit", h.UncompressedPageSize, maxPageBytes)
	case values < 0 || values > maxPageValues:
		return fmt.Errorf("page of %d values exceeds the %d-value limit", values, maxPageValues)
	}
	return nil
}

// checkPageData checks that a page's compressed data does not decompress to
// more than its header declares, where the codec makes that cheap to tell:
// snappy and zstd state the decoded size up front; LZ4_RAW does not, and
// parquet-go's LZ4 decoder doubles its buffer without bound on corrupt data,
// so LZ4_RAW pages are decompressed once here into a buffer of the declared
// size. (A crafted gzip or brotli bomb is not caught; see the package doc.)
func checkPageData(r io.ReaderAt, off int64, h *format.PageHeader, codec format.CompressionCodec) error {
	comp, want := int64(h.CompressedPageSize), int64(h.UncompressedPageSize)
	if v2 := h.DataPageHeaderV2; v2.Valid {
		levels := int64(v2.V.RepetitionLevelsByteLength) + int64(v2.V.DefinitionLevelsByteLength)
		if v2.V.RepetitionLevelsByteLength < 0 || v2.V.DefinitionLevelsByteLength < 0 || levels > comp || levels > want {
			return errors.New("level lengths exceed the page")
		}
		if v2.V.IsCompressed.Valid && !v2.V.IsCompressed.V {
			return nil
		}
		off, comp, want = off+levels, comp-levels, want-levels
	}
	read := func(n int64) ([]byte, error) {
		b := make([]byte, min(n, comp))
		_, err := r.ReadAt(b, off)
		return b, err
	}
	switch codec {
	case format.Snappy:
		b, err := read(binary.MaxVarintLen32)
		if err != nil {
			return err
		}
		if n, err := snappy.DecodedLen(b); err != nil || int64(n) > want {
			return fmt.Errorf("snappy data of %d bytes in a page of %d (%v)", n, want, err)
		}
	case format.Zstd:
		b, err := read(zstd.HeaderMaxSize)
		if err != nil {
			return err
		}
		var zh zstd.Header
		if zh.Decode(b) == nil && zh.HasFCS && zh.FrameContentSize > uint64(want) {
			return fmt.Errorf("zstd frame of %d bytes in a page of %d", zh.FrameContentSize, want)
		}
	case format.Lz4Raw:
		b, err := read(comp)
		if err != nil {
			return err
		}
		if _, err := lz4.UncompressBlock(b, make([]byte, want)); err != nil {
			return fmt.Errorf("corrupt LZ4 data: %w", err)
		}
	}
	return nil
}

// checkRowGroup checks the pages of the projected columns of a row group.
func (t *parquetTable) checkRowGroup(rg int) error {
	md := t.f.Metadata()
	if rg >= len(md.RowGroups) {
		return errors.New("row group missing from the metadata")
	}
	cols := md.RowGroups[rg].Columns
	for _, c := range t.proj {
		i := t.leaf[c].ColumnIndex
		if i >= len(cols) {
			return fmt.Errorf("row group %d lacks column %s", rg, t.cols[c])
		}
		if err := checkChunkPages(t.ra, t.size, &cols[i].MetaData); err != nil {
			return fmt.Errorf("column %s: %w", t.cols[c], err)
		}
	}
	return nil
}

// thriftWalker skips over a Thrift compact-protocol value and checks that
// every length it declares fits in the bytes that remain. Every element of a
// list, set or map takes at least one byte, so a list can never claim more
// elements than there are bytes left.
type thriftWalker struct {
	b   []byte
	off int
}

func (w *thriftWalker) byte() (byte, error) {
	if w.off >= len(w.b) {
		return 0, io.ErrUnexpectedEOF
	}
	c := w.b[w.off]
	w.off++
	return c, nil
}

func (w *thriftWalker) uvarint() (uint64, error) {
	v, n := binary.Uvarint(w.b[w.off:])
	if n == 0 {
		return 0, io.ErrUnexpectedEOF
	}
	if n < 0 {
		return 0, errCorruptThrift
	}
	w.off += n
	return v, nil
}

func (w *thriftWalker) skip(n uint64) error {
	if n > uint64(len(w.b)-w.off) {
		return io.ErrUnexpectedEOF
	}
	w.off += int(n)
	return nil
}

// count reads a declared number of elements and checks it against the bytes left.
func (w *thriftWalker) count(n uint64) (int, error) {
	if n > uint64(len(w.b)-w.off) {
		return 0, io.ErrUnexpectedEOF
	}
	return int(n), nil
}

func (w *thriftWalker) skipStruct(depth int) error {
	if depth > maxThriftNest {
		return errCorruptThrift
	}
	for {
		h, err := w.byte()
		if err != nil {
			return err
		}
		if h == 0 { // stop
			return nil
		}
		if h>>4 == 0 { // long form: the field id follows
			if _, err := w.uvarint(); err != nil {
				return err
			}
		}
		typ := h & 0x0f
		if typ == 1 || typ == 2 { // booleans live in the field header
			continue
		}
		if err := w.skipValue(typ, depth+1); err != nil {
			return err
		}
	}
}

func (w *thriftWalker) skipValue(typ byte, depth int) error {
	switch typ {
	case 1, 2, 3: // bool (in a collection), i8
		return w.skip(1)
	case 4, 5, 6: // i16, i32, i64 as varints
		_, err := w.uvarint()
		return err
	case 7: // double
		return w.skip(8)
	case 8: // binary
		n, err := w.uvarint()
		if err != nil {
			return err
		}
		return w.skip(n)
	case 9, 10: // list, set
		h, err := w.byte()
		if err != nil {
			return err
		}
		size := uint64(h >> 4)
		if size == 15 {
			if size, err = w.uvarint(); err != nil {
				return err
			}
		}
		n, err := w.count(size)
		if err != nil {
			return err
		}
		for range n {
			if err := w.skipValue(h&0x0f, depth+1); err != nil {
				return err
			}
		}
		return nil
	case 11: // map
		size, err := w.uvarint()
		if err != nil || size == 0 {
			return err
		}
		kv, err := w.byte()
		if err != nil {
			return err
		}
		n, err := w.count(size)
		if err != nil {
			return err
		}
		for range n {
			if err := w.skipValue(kv>>4, depth+1); err != nil {
				return err
			}
			if err := w.skipValue(kv&0x0f, depth+1); err != nil {
				return err
			}
		}
		return nil
	case 12: // struct
		return w.skipStruct(depth)
	}
	return errCorruptThrift
}
