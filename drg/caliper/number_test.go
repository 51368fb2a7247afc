package caliper

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestParseNumber: parseNumber gives strconv.ParseFloat's result to the bit
// (or its error) on every string of a random mix of digits, signs, dots and
// exponents, and on decimals at the edges of the short path (15 and 16
// significant digits, 22 and 23 decimals, leading zeros, lone signs/dots).
func TestParseNumber(t *testing.T) {
	cases := []string{"", "-", "+", ".", "-.", "0", "-0", "+0", ".5", "5.", "-.5", "1.5.2", "0.000123", "567",
		"123456789012345", "1234567890123456", "0.000000000000000000000123456789012345",
		"0." + "0000000000000000000001", "0." + "00000000000000000000001", "999999999999999.9",
		"00000000000000000000000001", "1e5", "inf", "NaN", "0x1p-2", "1_000", " 1", "1 "}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "0123456789.-+e"
	for range 200000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			if r.IntN(4) == 0 {
				b[i] = alphabet[10+r.IntN(4)]
			} else {
				b[i] = alphabet[r.IntN(10)]
			}
		}
		cases = append(cases, string(b))
	}
	for range 100000 { // decimals as Caliper prints them
		cases = append(cases, strconv.FormatFloat(r.ExpFloat64()*math.Pow(10, float64(r.IntN(12)-6)), 'f', r.IntN(12), 64))
	}
	short := 0
	for _, s := range cases {
		want, werr := strconv.ParseFloat(s, 64)
		got, gerr := parseNumber(s)
		if (werr != nil) != (gerr != nil) || math.Float64bits(got) != math.Float64bits(want) && werr == nil {
			t.Fatalf("%q: %v (%v), ParseFloat %v (%v)", s, got, gerr, want, werr)
		}
		if _, ok := plainDecimal(s); ok {
			short++
		}
	}
	if short < 100000 {
		t.Errorf("only %d of %d strings took the short path", short, len(cases))
	}
}
