package petbuild

import (
	"strings"
	"testing"
)

// TestCheckFooter: the framing checkFooter guards, worked by hand. A Parquet file is "PAR1",
// the data, the footer, the footer's length (4 bytes, little-endian) and "PAR1", so 12 bytes is
// the shortest frame (an empty footer), and a footer fits when its length is at most size − 12.
func TestCheckFooter(t *testing.T) {
	frame := func(data string, footer byte) string { return "PAR1" + data + string([]byte{footer, 0, 0, 0}) + "PAR1" }
	for _, c := range []struct {
		name, file string
		err        string // "" for none
	}{
		{"11 bytes", "PAR1xxxPAR1", "11 bytes is too short"},
		{"12 bytes, an empty footer", frame("", 0), ""},
		{"a bad head", "PAR2" + frame("", 0)[4:], "missing PAR1 magic"},
		{"a bad tail", frame("", 0)[:8] + "PAR2", "missing PAR1 magic"},
		{"8 bytes of footer in 20", frame("abcdefgh", 8), ""},
		{"9 bytes of footer in 20", frame("abcdefgh", 9), "footer length 9 exceeds the file size 20"},
	} {
		err := checkFooter(strings.NewReader(c.file), int64(len(c.file)))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: error %v, want none", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		}
	}
}
