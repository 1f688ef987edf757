package petbuild

import (
	"bytes"
	"strings"
	"testing"
)

// TestUnknownTimeUnitRefused: a PET whose time unit no reader understands is refused by every
// reader, naming the file and the unit (issue 49: pet show and pet convert accepted
// "fortnights" and copied it into their output), and New refuses it too.
func TestUnknownTimeUnitRefused(t *testing.T) {
	p := smallPET(t)
	var js bytes.Buffer
	if err := WriteJSON(&js, p); err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(js.String(), `"time_unit": "`+p.TimeUnit()+`"`, `"time_unit": "fortnights"`, 1)
	if bad == js.String() {
		t.Fatalf("no time_unit to replace in %s", js.String()[:100])
	}
	_, err := ReadJSON(strings.NewReader(bad), "fort.json", ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "fort.json") || !strings.Contains(err.Error(), `"fortnights"`) {
		t.Errorf("ReadJSON: %v, want an error naming fort.json and the unit", err)
	}
	cells := p.Cells()
	if _, err := New(p.TaskTypes(), p.MachineTypes(), "fortnights", cells); err == nil {
		t.Error("New accepted the unit fortnights")
	}
	for _, u := range []string{"", "ms", "s", "us", "h"} {
		if _, err := New(p.TaskTypes(), p.MachineTypes(), u, cells); err != nil {
			t.Errorf("New refused unit %q: %v", u, err)
		}
	}
}

// TestJSONKeysChecked: a key twice in one object (encoding/json keeps the last) and a key a
// PET does not have (a misspelt "time_units" left the PET in ms) are refused naming the key and
// its line; the file as written reads (issue 49, item 13).
func TestJSONKeysChecked(t *testing.T) {
	var js bytes.Buffer
	if err := WriteJSON(&js, smallPET(t)); err != nil {
		t.Fatal(err)
	}
	good := js.String()
	if _, err := ReadJSON(strings.NewReader(good), "p.json", ReadOptions{}); err != nil {
		t.Fatalf("the file as written: %v", err)
	}
	cases := []struct{ name, old, new, want string }{
		{"duplicate top", `"step":`, `"step": 7, "step":`, "line 5: step appears twice"},
		{"unknown top", `"step":`, `"time_units": "s", "step":`, "time_units"},
		{"duplicate in cell", `"samples":`, `"samples": 1, "samples":`, "samples"},
		{"unknown in cell", `"samples":`, `"sample": 1, "samples":`, "sample"},
	}
	for _, c := range cases {
		bad := strings.Replace(good, c.old, c.new, 1)
		if bad == good {
			t.Fatalf("%s: %q not in the file", c.name, c.old)
		}
		_, err := ReadJSON(strings.NewReader(bad), "p.json", ReadOptions{})
		if err == nil || !strings.Contains(err.Error(), "p.json") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming p.json and %q", c.name, err, c.want)
		}
	}
}
