// Package decimal reads the plain decimal numbers that logs, traces and PET files are made of
// ("45", "0.00122249", "-3.5") faster than strconv.ParseFloat and to the same bits. It owns only
// that fast path: whatever it does not take (exponents, long mantissas, hexadecimal, inf, nan,
// spaces) its callers hand to strconv, and so do their error messages.
package decimal

// pow10 holds the powers of ten that a float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// Parse reads [+-]digits[.digits] of at most 19 digits whose value without the point is below
// 2^53: the mantissa and the power of ten are then exact float64s, so one division rounds once,
// correctly, and gives strconv.ParseFloat's bits (Clinger 1990, "How to read floating point
// numbers accurately"; strconv's own first try). Anything else is not ok, and the caller asks
// strconv.
func Parse(b []byte) (float64, bool) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg, i = b[0] == '-', 1
	}
	var m uint64
	digits, frac, dot := 0, 0, false
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			digits++
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 19 || m >= 1<<53 { // 19 digits do not overflow m, and pow10 holds 10^frac
		return 0, false
	}
	v := float64(m) / pow10[frac]
	if neg {
		v = -v
	}
	return v, true
}
