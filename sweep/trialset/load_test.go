package trialset

import (
	"path/filepath"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
)

// TestOpenTakesListing: Open opens the sources of a listing made ahead (Input.Listed), not its
// spec's again, and refuses a spec whose listing failed with the error listing it gives.
func TestOpenTakesListing(t *testing.T) {
	pet := tinyPET(t)
	a, b := replaytest.LongTrace(t, 5, nil), replaytest.LongTrace(t, 7, nil)
	trials, err := Open(Input{Spec: a, Listed: Expand(b)}, pet, func(string) {})
	if err != nil || len(trials) != 1 || trials[0].Name() != b {
		t.Errorf("Open of %s listed as %s: %d trials (%v), want %s's", a, b, len(trials), err, b)
	}
	missing := filepath.Join(t.TempDir(), "none-*.csv")
	_, want := Open(Input{Spec: missing}, pet, func(string) {})
	_, got := Open(Input{Spec: missing, Listed: Expand(missing)}, pet, func(string) {})
	if want == nil || got == nil || got.Error() != want.Error() {
		t.Errorf("a glob that matches nothing, listed ahead: %v, want %v", got, want)
	}
}
