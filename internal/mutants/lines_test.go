package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestLineMapBruteForce: on random small files over three distinct lines, lineMap's pairs join
// equal lines in the same order in both files, and there are as many as the longest common
// subsequence found by trying every subsequence of old against new.
func TestLineMapBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 1))
	for range 3000 {
		old, new := randomLines(rng), randomLines(rng)
		at := lineMap(old, new)
		var is []int
		for i := range at {
			is = append(is, i)
		}
		slices.Sort(is)
		prev := 0
		for _, i := range is {
			j := at[i]
			if i < 1 || i > len(old) || j < 1 || j > len(new) || old[i-1] != new[j-1] || j <= prev {
				t.Fatalf("old %q new %q: pairs %v: %d→%d is not an ordered pair of equal lines", old, new, at, i, j)
			}
			prev = j
		}
		if want := bruteLCS(old, new); len(at) != want {
			t.Fatalf("old %q new %q: %d pairs %v, want %d", old, new, len(at), at, want)
		}
	}
}

func randomLines(rng *rand.Rand) []string {
	lines := make([]string, rng.IntN(8))
	for i := range lines {
		lines[i] = string(rune('a' + rng.IntN(3)))
	}
	return lines
}

// bruteLCS is the length of a longest subsequence of old that is a subsequence of new, over
// every subset of old's lines.
func bruteLCS(old, new []string) int {
	best := 0
	for mask := range 1 << len(old) {
		var sub []string
		for i := range old {
			if mask&(1<<i) != 0 {
				sub = append(sub, old[i])
			}
		}
		j := 0
		for _, l := range new {
			if j < len(sub) && sub[j] == l {
				j++
			}
		}
		if j == len(sub) {
			best = max(best, len(sub))
		}
	}
	return best
}

// TestChangedLines: edits worked by hand. Lines of new counted from 1.
func TestChangedLines(t *testing.T) {
	const src = "package p\n\nfunc F(a int) int {\n\treturn a + 1\n}\n"
	for _, c := range []struct {
		name, old, new string
		want           []int
	}{
		{"same", src, src, nil},
		{"a line on top moves the others", src, "// doc\n" + src, []int{1}},
		{"one line edited", src, strings.Replace(src, "a + 1", "a - 1", 1), []int{4}},
		{"a line deleted", src, strings.Replace(src, "\n\n", "\n", 1), nil},
		{"a line added inside", src, strings.Replace(src, "\treturn", "\ta++\n\treturn", 1), []int{4}},
		{"new file", "", src, []int{1, 2, 3, 4, 5, 6}}, // 6: the empty line after the last newline
	} {
		got := changedLines([]byte(c.old), []byte(c.new))
		var lines []int
		for l := range got {
			lines = append(lines, l)
		}
		slices.Sort(lines)
		if fmt.Sprint(lines) != fmt.Sprint(c.want) {
			t.Errorf("%s: changed lines %v, want %v", c.name, lines, c.want)
		}
	}
}
