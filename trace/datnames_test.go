package trace

import (
	"strings"
	"testing"
)

func TestNamedByIndex(t *testing.T) {
	for _, c := range []struct {
		types []string
		want  bool
	}{{nil, true}, {[]string{"0", "1", "2"}, true}, {[]string{"1", "0"}, false}, {[]string{"0", "01"}, false}, {[]string{"fft"}, false}} {
		if got := NamedByIndex(c.types); got != c.want {
			t.Errorf("NamedByIndex(%q) = %v, want %v", c.types, got, c.want)
		}
	}
}

func TestNonIndexType(t *testing.T) {
	for _, c := range []struct {
		types []string
		want  string // "" when every type is an index
	}{{[]string{"0", "7", "12"}, ""}, {[]string{"0", "fft"}, "fft"}, {[]string{"+1"}, "+1"}, {[]string{"-1"}, "-1"}, {[]string{"1.5"}, "1.5"}} {
		tr := &Trace{}
		for _, ty := range c.types {
			tr.Tasks = append(tr.Tasks, Task{Type: ty})
		}
		got, found := NonIndexType(tr)
		if got != c.want || found != (c.want != "") {
			t.Errorf("NonIndexType(%q) = %q, %v; want %q", c.types, got, found, c.want)
		}
	}
}

func TestIndexList(t *testing.T) {
	if got := IndexList([]string{"fft", "sort", "zip"}); got != "0=fft, 1=sort, 2=zip" {
		t.Errorf("IndexList = %q", got)
	}
	eight := strings.Split("a b c d e f g h", " ")
	if got, want := IndexList(eight), "0=a, 1=b, 2=c, 3=d, 4=e, 5=f, … (8 in all)"; got != want {
		t.Errorf("IndexList(8) = %q, want %q", got, want)
	}
}

// TestCheckDatTypes: without the PET's types a name that is no index is refused, naming it; with
// them, names are written as indexes with a warning that lists them, and indexes as they are.
func TestCheckDatTypes(t *testing.T) {
	named := &Trace{Tasks: []Task{{Type: "0"}, {Type: "fft"}}}
	indexed := &Trace{Tasks: []Task{{Type: "0"}, {Type: "1"}}}
	for _, c := range []struct {
		tr         *Trace
		types      []string
		warn, fail string // parts of the warning and the error; "" for none
	}{
		{named, nil, "", `task type "fft" is not an index`},
		{indexed, nil, "", ""},
		{named, []string{"fft", "sort"}, "written as indexes into the PET's (0=fft, 1=sort)", ""},
		{indexed, []string{"0", "1"}, "", ""},
	} {
		w, err := CheckDatTypes(c.tr, c.types, "o.dat")
		if (c.warn == "") != (w == "") || !strings.Contains(w, c.warn) {
			t.Errorf("%v, types %q: warning %q, want one with %q", c.tr.Tasks, c.types, w, c.warn)
		}
		if (c.fail == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.fail) {
			t.Errorf("%v, types %q: error %v, want one with %q", c.tr.Tasks, c.types, err, c.fail)
		}
	}
	if got, want := TypeIndexNote([]string{"fft", "sort"}), "; .dat keeps task types as indexes into the PET's (0=fft, 1=sort)"; got != want {
		t.Errorf("TypeIndexNote = %q, want %q", got, want)
	}
	if got := TypeIndexNote([]string{"0", "1"}); got != "" {
		t.Errorf("TypeIndexNote of indexes = %q, want none", got)
	}
}

func TestIsTrialFile(t *testing.T) {
	for name, want := range map[string]bool{
		"arr19k_3.csv": true, "load1.5_3.dat": true, "rate2_10.dat.gz": true, "a_1.parquet": true,
		"pet.json": false, "arr19k_.csv": false, "arr19k_x.csv": false, "arr19k.csv": false, "notes_1.txt": false,
	} {
		if got := IsTrialFile(name); got != want {
			t.Errorf("IsTrialFile(%q) = %v, want %v", name, got, want)
		}
	}
}
