package trace

import (
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
)

// The column path of the Parquet reader (issue 50). Going through parquet.Value costs a
// 24-byte value per cell, a dictionary look-up per value and a kind switch per access; most
// of pet build's time on a Parquet log went there. So a cursor takes each page's decoded
// values as the typed slices parquet-go holds them in (Page.Data: []float64, []int64, byte
// arrays as bytes and offsets, the dictionary's indexes and the dictionary's own page), with
// the definition levels telling which rows are null, and reads cells from those slices.
//
// A page is taken this way only when it is of a shape checked here: INT32, INT64, FLOAT,
// DOUBLE or BYTE_ARRAY values, plain or dictionary-encoded, every dictionary index
// within the dictionary, byte-array offsets within the data, and as many non-null rows as
// values. Any other page (BOOLEAN, INT96, FIXED_LEN_BYTE_ARRAY, or one corrupt in one of
// these ways) is read through parquet.Value as before, so what such a page yields, or the
// error it gives, does not change.

// pqPage is one page's values, typed.
type pqPage struct {
	kind parquet.Kind
	rows int
	size int     // values in the typed slices: the dictionary's, for a dictionary-encoded page
	at   []int32 // value index of each row, -1 for a null; nil when the page has no null
	dict []int32 // dictionary index of each value; nil when the page is not dictionary-encoded
	f64  []float64
	f32  []float32
	i32  []int32
	i64  []int64
	data []byte   // BYTE_ARRAY values: value k is data[offs[k]:offs[k+1]]
	offs []uint32 //
	// names caches the text of each value of a dictionary (trimmed and interned, as text
	// returns it), while the pages keep the same dictionary; reset with each column chunk.
	names    []pqName
	namesFor parquet.Dictionary
}

// pqName is text's result for one dictionary value, once done.
type pqName struct {
	s    string
	st   cellStatus
	done bool
}

// load takes p's values if p is of a shape this path reads, and reports whether it did. It
// never panics: a page parquet-go cannot present typed is left to the value path.
func (pg *pqPage) load(p parquet.Page, maxDef byte) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	data := p.Data()
	values, n := data, 0
	pg.dict = nil
	dict := p.Dictionary()
	if dict != nil {
		if data.Kind() != encoding.Int32 {
			return false
		}
		values = dict.Page().Data()
		pg.dict = data.Int32()
		n = len(pg.dict)
	}
	size := 0
	pg.f64, pg.f32, pg.i32, pg.i64, pg.data, pg.offs = nil, nil, nil, nil, nil, nil
	switch values.Kind() {
	case encoding.Double:
		pg.kind, pg.f64 = parquet.Double, values.Double()
		size = len(pg.f64)
	case encoding.Float:
		pg.kind, pg.f32 = parquet.Float, values.Float()
		size = len(pg.f32)
	case encoding.Int32:
		pg.kind, pg.i32 = parquet.Int32, values.Int32()
		size = len(pg.i32)
	case encoding.Int64:
		pg.kind, pg.i64 = parquet.Int64, values.Int64()
		size = len(pg.i64)
	case encoding.ByteArray:
		pg.kind = parquet.ByteArray
		pg.data, pg.offs = values.ByteArray()
		if !offsetsWithin(pg.offs, len(pg.data)) {
			return false
		}
		size = len(pg.offs) - 1
	default:
		return false
	}
	pg.size = size
	if dict == nil {
		n = size
	} else if !indexesWithin(pg.dict, size) {
		return false
	}
	if dict != pg.namesFor {
		pg.names, pg.namesFor = pg.names[:0], dict
	}
	return pg.levels(p.DefinitionLevels(), maxDef, n)
}

// levels maps rows to values from the definition levels (a row is null when its level is
// not maxDef, as parquet-go reads it), and checks that the non-null rows are n.
func (pg *pqPage) levels(def []byte, maxDef byte, n int) bool {
	pg.at = pg.at[:0]
	if len(def) == 0 {
		pg.rows = n
		return true
	}
	k, nulls := int32(0), false
	for _, d := range def {
		if d == maxDef {
			pg.at = append(pg.at, k)
			k++
		} else {
			pg.at = append(pg.at, -1)
			nulls = true
		}
	}
	if int(k) != n {
		return false
	}
	if !nulls {
		pg.at = pg.at[:0]
	}
	pg.rows = len(def)
	return true
}

func offsetsWithin(offs []uint32, size int) bool {
	if len(offs) == 0 {
		return false
	}
	prev := offs[0]
	for _, o := range offs {
		if o < prev {
			return false
		}
		prev = o
	}
	return int64(prev) <= int64(size)
}

func indexesWithin(idx []int32, size int) bool {
	for _, i := range idx {
		if i < 0 || int(i) >= size {
			return false
		}
	}
	return true
}

// drop forgets the page's slices, before the page goes back to parquet-go's pool.
func (pg *pqPage) drop() {
	pg.f64, pg.f32, pg.i32, pg.i64, pg.data, pg.offs, pg.dict = nil, nil, nil, nil, nil, nil, nil
}

// value returns the value index of row i, or false when the row is null.
func (pg *pqPage) value(i int) (int, bool) {
	if len(pg.at) > 0 {
		if i = int(pg.at[i]); i < 0 {
			return 0, false
		}
	}
	return i, true
}

// index is the position of value k in the typed slices: its dictionary index, or k.
func (pg *pqPage) index(k int) int {
	if pg.dict != nil {
		return int(pg.dict[k])
	}
	return k
}

func (pg *pqPage) bytes(j int) []byte { return pg.data[pg.offs[j]:pg.offs[j+1]] }
