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
