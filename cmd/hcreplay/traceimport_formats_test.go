package main

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/trace/importers"
)

// TestTraceImportFormatsMatchRegistry: the --from choices and the formats
// the help text describes are exactly the importers' registry, in its order,
// so that a format added to trace/importers cannot be missing from the
// command line or its documentation (nor one removed linger there).
func TestTraceImportFormatsMatchRegistry(t *testing.T) {
	var want []string
	for _, f := range importers.Formats() {
		want = append(want, string(f))
	}
	field, ok := reflect.TypeOf(TraceImportCmd{}).FieldByName("From")
	if !ok {
		t.Fatal("TraceImportCmd has no From field")
	}
	if got := strings.Split(field.Tag.Get("enum"), ","); !slices.Equal(got, want) {
		t.Errorf("--from enum %v, registry %v", got, want)
	}
	// The help's format table: lines "  NAME   description" under "Formats and what they give".
	help := (&TraceImportCmd{}).Help()
	_, table, ok := strings.Cut(help, "Formats and what they give")
	if !ok {
		t.Fatal("help has no format table")
	}
	table, _, _ = strings.Cut(table, "\n\nDeadlines")
	var described []string
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z0-9-]+)\s{2,}`).FindAllStringSubmatch(table, -1) {
		described = append(described, m[1])
	}
	if !slices.Equal(described, want) {
		t.Errorf("help describes %v, registry %v", described, want)
	}
}
