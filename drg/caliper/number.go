package caliper

import "strconv"

// parseNumber parses a record's value as strconv.ParseFloat(s, 64) does.
// Plain decimals of at most 15 significant digits and 22 decimals (what
// Caliper writes: "0.000123", "567", "-2.5") take a short path: the digits
// as an integer, exact in a float64, divided by an exact power of ten, which
// IEEE division rounds correctly, so the result is ParseFloat's to the bit.
func parseNumber(s string) (float64, error) {
	if v, ok := plainDecimal(s); ok {
		return v, nil
	}
	return strconv.ParseFloat(s, 64)
}

// pow10 holds the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// plainDecimal parses [+-]digits[.digits] with at least one digit; ok is
// false for anything else or beyond the exact range.
func plainDecimal(s string) (v float64, ok bool) {
	i, neg := 0, false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg, i = s[0] == '-', 1
	}
	var m uint64
	digits, significant, decimals, dot := 0, 0, 0, false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
			if significant > 0 || c != '0' {
				significant++
			}
			m = m*10 + uint64(c-'0')
			if dot {
				decimals++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
		if significant > 15 || decimals >= len(pow10) {
			return 0, false
		}
	}
	if digits == 0 {
		return 0, false
	}
	v = float64(m) / pow10[decimals]
	if neg {
		v = -v
	}
	return v, true
}
