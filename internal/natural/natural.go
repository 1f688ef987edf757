// Package natural orders names the way people read them: "arr3k_2" before
// "arr3k_10", "2" before "10", "0.25" before "0.5". It is the one order the
// module uses for file names, task and machine types, levels and option
// values, so that a trace, the PET built from it and the report list them
// alike. It owns nothing else.
package natural

import (
	"cmp"
	"math"
	"strconv"
	"strings"
)

// Compare orders a and b for slices.SortFunc:
//
//   - The empty name sorts first (an unset option value in a report).
//   - Two names that are whole finite numbers ("2", "1.5", "-3", "1e-05")
//     compare by value, equal values by their bytes. Reports sort option
//     values written with %g this way.
//   - A number sorts before a name that is not one.
//   - Other names compare byte by byte, except that runs of digits compare
//     by value ("arr3k_2" < "arr3k_10"; equal values with fewer leading
//     zeros first) and the digits after a decimal point between digits
//     compare as a fraction ("threshold:0.25" < "threshold:0.5").
//
// NaN and infinities are names, not numbers.
func Compare(a, b string) int {
	if a == "" || b == "" {
		return len(a) - len(b)
	}
	x, numA := number(a)
	y, numB := number(b)
	switch {
	case numA && numB:
		return cmp.Or(cmp.Compare(x, y), strings.Compare(a, b))
	case numA:
		return -1
	case numB:
		return 1
	}
	return compareRuns(a, b)
}

// number parses a name that is a finite number.
func number(s string) (float64, bool) {
	if s == "" || !(s[0] == '-' || s[0] == '+' || s[0] == '.' || isDigit(s[0])) {
		return 0, false // the common case of a name, without ParseFloat's error allocation
	}
	x, err := strconv.ParseFloat(s, 64)
	return x, err == nil && !math.IsInf(x, 0) && !math.IsNaN(x)
}

// compareRuns compares byte by byte, digit runs by value, fractions as
// fractions.
func compareRuns(a, b string) int {
	frac := false // the runs ahead follow "<digit>."
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			var c int
			if frac {
				c = strings.Compare(strings.TrimRight(a[:da], "0"), strings.TrimRight(b[:db], "0"))
			} else {
				c = compareInts(a[:da], b[:db])
			}
			if c != 0 {
				return c
			}
			if da != db { // equal values: fewer leading (or trailing) zeros first
				return da - db
			}
			a, b = a[da:], b[db:]
			frac = len(a) > 1 && len(b) > 1 && a[0] == '.' && b[0] == '.' && isDigit(a[1]) && isDigit(b[1])
			continue
		}
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		a, b = a[1:], b[1:]
		// frac survives the '.' both names share, and only it
	}
	return len(a) - len(b)
}

// compareInts compares two runs of digits by value.
func compareInts(a, b string) int {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

func digitRun(s string) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
