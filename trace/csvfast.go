package trace

import (
	"bytes"
	"io"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/hcreplay/hcreplay/internal/decimal"
)

// The CSV fast path. Almost every log is numbers and short names without a quote: for such
// lines encoding/csv's work (a state machine per byte, a string per record) is what a byte
// split at ',' does, and most of pet build's time went there (issue 50). So the CSV table reads
// whole lines in chunks (lineChunker), splits them at ',' into byte slices (csvLines) and
// parses numbers from the bytes (parseNumberBytes), all without allocating per field. The
// first chunk with a quote hands the rest of the file to encoding/csv: a quoted field may hold
// a comma or a line break, and since every earlier line is quote-free, that chunk starts at a
// record boundary, so encoding/csv reads the rest exactly as it would have read it from the top.
//
// What the split must match, for quote-free input, is encoding/csv with TrimLeadingSpace:
// a line ends at '\n', and a "\r\n" ending, or a '\r' just before the end of the file, is not
// part of it; an empty line is skipped but counted; a field starts after any Unicode space.

// lineChunker cuts a text stream into chunks of whole lines of about size bytes (a longer line
// makes a longer chunk). It counts lines, so that every chunk knows the number of its first.
type lineChunker struct {
	r     io.Reader
	lim   *capReader // its record cap is reset per chunk; nil when none
	size  int
	carry []byte // the start of a line the last chunk did not end
	line  int    // lines handed out so far
	err   error  // the read error or io.EOF that ends the stream, once the data before it is out
}

// chunk is a run of whole lines: data, the first line's number, and whether a '"' occurs.
type chunk struct {
	data   []byte
	first  int
	quoted bool
}

// next fills buf (reused; nil allocates) with the next chunk. It returns the stream's end
// (io.EOF) or read error only once every line before it has been returned.
func (c *lineChunker) next(buf []byte) (chunk, error) {
	if c.err != nil && len(c.carry) == 0 {
		return chunk{}, c.err
	}
	if c.lim != nil {
		c.lim.mark()
	}
	buf = append(buf[:0], c.carry...)
	c.carry = c.carry[:0]
	for c.err == nil {
		if cap(buf)-len(buf) < max(c.size/2, 1) {
			buf = slices.Grow(buf, c.size)
		}
		start := len(buf)
		n, err := io.ReadAtLeast(c.r, buf[start:cap(buf)], cap(buf)-start)
		buf = buf[:start+n]
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		c.err = err
		if bytes.IndexByte(buf[start:], '\n') >= 0 {
			break // else a line longer than the buffer: read on
		}
	}
	end := len(buf)
	if c.err != io.EOF {
		// Keep a partial last line for the next chunk; at a read error it is dropped with
		// the rest of the stream.
		end = bytes.LastIndexByte(buf, '\n') + 1
		if c.err == nil {
			c.carry = append(c.carry, buf[end:]...)
		}
	}
	data := buf[:end]
	if len(data) == 0 {
		return chunk{}, c.err
	}
	ch := chunk{data: data, first: c.line + 1, quoted: bytes.IndexByte(data, '"') >= 0}
	c.line += bytes.Count(data, []byte{'\n'})
	if data[len(data)-1] != '\n' {
		c.line++
	}
	return ch, nil
}

// rest is the stream from the start of ch on, for encoding/csv: ch's lines, the carried
// partial line and the unread input.
func (c *lineChunker) rest(ch chunk) io.Reader {
	parts := []io.Reader{bytes.NewReader(ch.data), bytes.NewReader(c.carry)}
	if c.err == nil {
		parts = append(parts, c.r)
	} else if c.err != io.EOF {
		parts = append(parts, &errReader{c.err})
	}
	return io.MultiReader(parts...)
}

type errReader struct{ err error }

func (e *errReader) Read([]byte) (int, error) { return 0, e.err }

// csvLines splits the records of a quote-free chunk into fields.
type csvLines struct {
	data   []byte
	next   int // the number of the line at data[0]
	line   int // the current record's line
	fields [][]byte
}

func (l *csvLines) reset(ch chunk) {
	l.data, l.next, l.line = ch.data, ch.first, 0
}

// advance moves to the next non-empty line and splits it; false at the end of the chunk.
func (l *csvLines) advance() bool {
	for len(l.data) > 0 {
		i := bytes.IndexByte(l.data, '\n')
		var b []byte
		if i < 0 {
			b, l.data = l.data, nil
		} else {
			b, l.data = l.data[:i], l.data[i+1:]
		}
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
		n := l.next
		l.next++
		if len(b) > 0 {
			l.line = n
			l.fields = splitFields(l.fields[:0], b)
			return true
		}
	}
	return false
}

// splitFields appends the fields of a quote-free line (without its end) to dst: split at ',',
// each with its leading Unicode spaces removed, as encoding/csv's TrimLeadingSpace does.
func splitFields(dst [][]byte, b []byte) [][]byte {
	for {
		b = trimLeadingSpace(b)
		i := bytes.IndexByte(b, ',')
		if i < 0 {
			return append(dst, b)
		}
		dst = append(dst, b[:i])
		b = b[i+1:]
	}
}

func trimLeadingSpace(b []byte) []byte {
	for len(b) > 0 {
		c := b[0]
		if c < utf8.RuneSelf {
			if c != ' ' && (c < '\t' || c > '\r') {
				return b
			}
			b = b[1:]
			continue
		}
		r, n := utf8.DecodeRune(b)
		if !unicode.IsSpace(r) {
			return b
		}
		b = b[n:]
	}
	return b
}

// trimSpaceBytes is trimSpace for bytes: strings.TrimSpace's result, except that a field
// whose first and last bytes are past ' ' is taken as it is.
func trimSpaceBytes(b []byte) []byte {
	if len(b) == 0 || (b[0] > ' ' && b[len(b)-1] > ' ') {
		return b
	}
	return bytes.TrimSpace(b)
}

// parseNumberBytes is parseNumber for bytes. Plain decimals are read here; anything else goes
// to parseNumber without an allocation (parseNumber keeps nothing of its argument, so the
// compiler converts up to 32 bytes on the stack).
func parseNumberBytes(b []byte) (float64, cellStatus) {
	if v, ok := decimal.Parse(b); ok {
		return v, cellOK
	}
	if len(b) == 0 {
		return 0, cellAbsent
	}
	return parseNumber(string(b))
}

// csvChunkTable reads the records of one chunk (csvLines) for a worker of the parallel read:
// a table whose name, columns and unit are the file's (the embedded table).
type csvChunkTable struct {
	table
	lines csvLines
	cols  int
	names interners
}

func (t *csvChunkTable) next() error {
	if !t.lines.advance() {
		return io.EOF
	}
	if len(t.lines.fields) != t.cols {
		return fieldCountErr(t.name(), t.lines.line, t.cols)
	}
	return nil
}

func (t *csvChunkTable) where() (int, int64) { return t.lines.line, 0 }
func (t *csvChunkTable) raw(col int) string  { return string(t.lines.fields[col]) }
func (t *csvChunkTable) number(col int) (float64, cellStatus) {
	return parseNumberBytes(t.lines.fields[col])
}
func (t *csvChunkTable) text(col int) (string, cellStatus) {
	return textBytes(&t.names, col, t.lines.fields[col])
}
func (t *csvChunkTable) close() error { return nil }

// textBytes is a text cell from bytes: trimmed, absent when empty, interned per column.
func textBytes(names *interners, col int, b []byte) (string, cellStatus) {
	b = trimSpaceBytes(b)
	if len(b) == 0 {
		return "", cellAbsent
	}
	return names.col(col).bytes(b), cellOK
}

func fieldCountErr(file string, line, cols int) error {
	return &InputError{File: file, Line: line, Msg: "wrong number of fields (the header has " + strconv.Itoa(cols) + ")"}
}
