package prune

import (
	"errors"
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// TestChoose: labels, dedup and SameAs worked out by hand from the presets' tuning. PAMF is
// pruned under every variant (its tuning turns None into Both), so PAMF none and PAMF both are
// one mapper, PAMF-P, given once. Its fairness of 0.10 makes it another kind than PAM-P unless a
// fairness is set for both: at 0.2 PAMF keeps it, and PAMF-P is PAM-P under another label.
func TestChoose(t *testing.T) {
	p := heuristic.DefaultParams()
	fair := DefaultConfig()
	fair.Fairness = 0.2
	for _, c := range []struct {
		names, variants []string
		base            Config
		labels, sameAs  []string
	}{
		{[]string{"MM", "PAMF"}, []string{"none", "both"}, DefaultConfig(), []string{"MM", "MM-P", "PAMF-P"}, []string{"", "", ""}},
		{[]string{"PAM", "PAMF"}, []string{"both"}, DefaultConfig(), []string{"PAM-P", "PAMF-P"}, []string{"", ""}},
		{[]string{"PAM", "PAMF"}, []string{"both"}, fair, []string{"PAM-P", "PAMF-P"}, []string{"", "PAM-P"}},
		{[]string{"MCT", "MECT"}, []string{"none"}, DefaultConfig(), []string{"MCT"}, []string{""}}, // an alias names itself as its heuristic
	} {
		got, err := Choose(c.names, c.variants, p, c.base)
		if err != nil {
			t.Fatalf("%v × %v: %v", c.names, c.variants, err)
		}
		var labels, sameAs []string
		for _, ch := range got {
			labels, sameAs = append(labels, ch.Label), append(sameAs, ch.SameAs)
		}
		if !slices.Equal(labels, c.labels) || !slices.Equal(sameAs, c.sameAs) {
			t.Errorf("%v × %v (fairness %g): labels %q same as %q, want %q and %q", c.names, c.variants, c.base.Fairness, labels, sameAs, c.labels, c.sameAs)
		}
	}
}

// TestChooseRefuses: a deferring threshold of 1 defers every task, a fatal problem, refused with
// the name and variant as given; a bad variant or heuristic is an error too.
func TestChooseRefuses(t *testing.T) {
	p := heuristic.DefaultParams()
	cfg := DefaultConfig()
	cfg.Defer = DeferRule{Kind: "static", Value: 1}
	_, err := Choose([]string{"MM"}, []string{"none", "defer"}, p, cfg)
	var pe *ProblemError
	if !errors.As(err, &pe) || pe.Name != "MM" || pe.Variant != "defer" || !pe.Problem.Fatal {
		t.Errorf("static:1 under defer: %v, want a ProblemError for MM defer", err)
	}
	if _, err := Choose([]string{"MM"}, []string{"sideways"}, p, DefaultConfig()); err == nil {
		t.Error("an unknown variant was taken")
	}
	if _, err := Choose([]string{"NOPE"}, []string{"none"}, p, DefaultConfig()); err == nil {
		t.Error("an unknown heuristic was taken")
	}
}

// TestUnread: which options no mapper reads, by hand from the package doc's rules: a dropping
// mapper reads the toggle, λ, θ, ρ, fairness and running drops; a deferring one the deferring
// rule, its place and fairness, and θ too under a gap rule (θ + gap).
func TestUnread(t *testing.T) {
	p := heuristic.DefaultParams()
	set := DefaultConfig()
	set.DropThreshold, set.Defer, set.DeferAt = 0.3, DeferRule{Kind: "static", Value: 0.6}, DeferBefore
	gap := set
	gap.Defer = DefaultConfig().Defer
	for _, c := range []struct {
		names, variants []string
		set             Config
		want            []string
	}{
		{[]string{"MM"}, []string{"none"}, set, []string{"drop_threshold", "defer", "defer_at"}},
		{[]string{"MM"}, []string{"drop"}, set, []string{"defer", "defer_at"}},
		{[]string{"MM"}, []string{"defer"}, set, []string{"drop_threshold"}}, // static: θ unread
		{[]string{"MM"}, []string{"defer"}, gap, nil},                        // gap: θ + gap
		{[]string{"MM", "PAMF"}, []string{"none"}, set, nil},                 // PAMF prunes both under none
		{[]string{"MM"}, []string{"none"}, DefaultConfig(), nil},
	} {
		choices, err := Choose(c.names, c.variants, p, c.set)
		if err != nil {
			t.Fatal(err)
		}
		if got := Unread(choices, p, c.set); !slices.Equal(got, c.want) {
			t.Errorf("%v × %v: unread %q, want %q", c.names, c.variants, got, c.want)
		}
	}
}
