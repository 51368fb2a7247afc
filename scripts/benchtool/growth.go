package main

import "math"

// SuperlinearExponent is the growth exponent above which a figure is marked
// superlinear: 1.15 leaves room for noise around linear growth.
const SuperlinearExponent = 1.15

// Growth returns the growth exponent between two sizes,
// log(t2/t1)/log(n2/n1), where t is a time (or any cost) and n the size (the
// number of values). It is NaN when n1 = n2 or any input is not positive.
func Growth(t1, t2, n1, n2 float64) float64 {
	if t1 <= 0 || t2 <= 0 || n1 <= 0 || n2 <= 0 || n1 == n2 {
		return math.NaN()
	}
	return math.Log(t2/t1) / math.Log(n2/n1)
}

// GrowthNote describes an exponent for the table: "n^1.02", with
// " superlinear" appended above SuperlinearExponent.
func GrowthNote(e float64) string {
	if math.IsNaN(e) {
		return ""
	}
	s := "growth n^" + trim(e)
	if e > SuperlinearExponent {
		s += " superlinear"
	}
	return s
}

func trim(v float64) string {
	return Num(math.Round(v*100) / 100)
}
