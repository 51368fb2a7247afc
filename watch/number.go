package watch

import (
	"fmt"
	"math"
	"strconv"
)

// pow10 holds the powers of ten that are exact in a float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseNum parses a number as TAU prints it (%ld, %.16G). Decimals of at
// most 15 significant digits with a small exponent take Clinger's exact
// fast path (an exact integer times or divided by an exact power of ten
// rounds once, so the result equals strconv's); anything else goes to
// strconv.ParseFloat. NaN and infinities are errors.
func parseNum(f []byte) (float64, error) {
	if v, ok := fastNum(f); ok {
		return v, nil
	}
	v, err := strconv.ParseFloat(string(f), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("bad number %q", clip(f))
	}
	return v, nil
}

// fastNum is the fast path of parseNum; ok is false when it does not apply.
func fastNum(f []byte) (float64, bool) {
	i, neg := 0, false
	if len(f) > 0 && (f[0] == '-' || f[0] == '+') {
		neg, i = f[0] == '-', 1
	}
	var mant uint64
	digits, exp, sawDigit := 0, 0, false
	for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
		mant, digits, sawDigit = mant*10+uint64(f[i]-'0'), digits+1, true
	}
	if i < len(f) && f[i] == '.' {
		for i++; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
			mant, digits, sawDigit = mant*10+uint64(f[i]-'0'), digits+1, true
			exp--
		}
	}
	if !sawDigit || digits > 15 {
		return 0, false
	}
	if i < len(f) && (f[i] == 'E' || f[i] == 'e') {
		e, ok := smallExp(f[i+1:])
		if !ok {
			return 0, false
		}
		exp, i = exp+e, len(f)
	}
	if i != len(f) || exp < -22 || exp > 22 {
		return 0, false
	}
	v := float64(mant)
	if exp < 0 {
		v /= pow10[-exp]
	} else {
		v *= pow10[exp]
	}
	if neg {
		v = -v
	}
	return v, true
}

// smallExp parses a signed exponent of at most three digits.
func smallExp(f []byte) (int, bool) {
	neg := false
	if len(f) > 0 && (f[0] == '-' || f[0] == '+') {
		neg, f = f[0] == '-', f[1:]
	}
	if len(f) == 0 || len(f) > 3 {
		return 0, false
	}
	e := 0
	for _, c := range f {
		if c < '0' || c > '9' {
			return 0, false
		}
		e = e*10 + int(c-'0')
	}
	if neg {
		e = -e
	}
	return e, true
}

// parseInt parses a non-negative decimal id of at most nine digits.
func parseInt(f []byte) (int, bool) {
	if len(f) == 0 || len(f) > 9 {
		return 0, false
	}
	v := 0
	for _, c := range f {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// clip shortens text for an error message.
func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}
