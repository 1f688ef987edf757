package main

import "strings"

// lineMap pairs the lines two versions of a file have in common, as a longest common
// subsequence of their lines: at[i] = j when line i of old is line j of new (both counted from
// 1). A line changed, added or deleted is in no pair. A recheck keeps a mutant's status only on
// a line the change left alone, so a shorter pairing than the longest would only test more.
func lineMap(old, new []string) (at map[int]int) {
	at = map[int]int{}
	// A usual change touches a few lines of a long file: the common head and tail pair off
	// first, leaving the table below small.
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		at[p+1] = p + 1
		p++
	}
	s := 0
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		at[len(old)-s] = len(new) - s
		s++
	}
	a, b := old[p:len(old)-s], new[p:len(new)-s]
	// lcs[i*w+j] is the length of a longest common subsequence of a[i:] and b[j:].
	w := len(b) + 1
	lcs := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]: // pairing equal heads loses nothing: lcs[i][j] = 1 + lcs[i+1][j+1]
			at[p+i+1] = p + j + 1
			i++
			j++
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return at
}

// changedLines are the lines of new (counted from 1) that old does not have at the same place
// of a longest common subsequence: changed or added since old.
func changedLines(old, new []byte) map[int]bool {
	o, n := splitLines(old), splitLines(new)
	kept := map[int]bool{}
	for _, j := range lineMap(o, n) {
		kept[j] = true
	}
	changed := map[int]bool{}
	for j := 1; j <= len(n); j++ {
		if !kept[j] {
			changed[j] = true
		}
	}
	return changed
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.Split(string(b), "\n")
}
