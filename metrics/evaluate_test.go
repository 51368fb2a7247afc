package metrics

import (
	"math"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// smallTrial builds a trial with two metrics (timeName, usually "TIME", and
// PAPI_FP_OPS), three threads and two nodes:
//
//	              thread 0          thread 1          thread 2
//	main    TIME  incl 100 excl 40  incl 200 excl 50  incl 150 excl 30
//	        FP    incl 1000 excl 400 incl 3000 excl 500 incl 900 excl 300
//	        calls 1, subrs 5        calls 1, subrs 7  calls 1, subrs 0
//	compute TIME  incl 60 excl 60   incl 150 excl 0   (absent)
//	        FP    incl 600 excl 600 incl 2500 excl 25
//	        calls 5, subrs 0        calls 7, subrs 2
//
// The exclusive TIME of compute on thread 1 is a zero denominator.
func smallTrial(t testing.TB, timeName string) *drg.Trial {
	t.Helper()
	b, err := drg.NewBuilder([]drg.ThreadID{{Node: 0}, {Node: 1}, {Node: 2}})
	if err != nil {
		t.Fatal(err)
	}
	tm := b.Metric(timeName)
	fp := b.Metric("PAPI_FP_OPS")
	main := b.Node("main")
	compute := b.Node("compute")
	for th, v := range [][6]float64{{100, 40, 1000, 400, 1, 5}, {200, 50, 3000, 500, 1, 7}, {150, 30, 900, 300, 1, 0}} {
		b.AddValues(main, th, tm, v[1], v[0])
		b.AddValues(main, th, fp, v[3], v[2])
		b.AddCalls(main, th, v[4], v[5])
	}
	for th, v := range [][6]float64{{60, 60, 600, 600, 5, 0}, {150, 0, 2500, 25, 7, 2}} {
		b.AddValues(compute, th, tm, v[1], v[0])
		b.AddValues(compute, th, fp, v[3], v[2])
		b.AddCalls(compute, th, v[4], v[5])
	}
	tr, err := b.Finish("small", drg.Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	if tr.NodeIndex("main") != 0 || tr.NodeIndex("compute") != 1 || !tr.Has(0, 2) || tr.Has(1, 2) {
		t.Fatalf("unexpected layout: nodes %+v", tr.Nodes)
	}
	return tr
}

// undef marks an expected undefined (NaN) value in the tables below.
var undef = math.NaN()

// same reports whether got equals want to 1e-12 relative, NaN matching NaN.
func same(got, want float64) bool {
	if math.IsNaN(want) || math.IsNaN(got) {
		return math.IsNaN(want) && math.IsNaN(got)
	}
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}

// check compiles src over the trial's metrics, evaluates it and compares
// with the expected cells in order main t0,t1,t2, compute t0,t1,t2.
func check(t *testing.T, tr *drg.Trial, src string, wantIncl, wantExcl [6]float64) {
	t.Helper()
	e, err := Compile(src, Names(tr))
	if err != nil {
		t.Fatalf("Compile(%q): %v", src, err)
	}
	incl, excl, err := Evaluate(tr, e)
	if err != nil {
		t.Fatalf("Evaluate(%q): %v", src, err)
	}
	for i := range wantIncl {
		if !same(incl[i], wantIncl[i]) || !same(excl[i], wantExcl[i]) {
			t.Errorf("%q cell %d: incl %v excl %v, want %v %v", src, i, incl[i], excl[i], wantIncl[i], wantExcl[i])
		}
	}
}

func TestEvaluateByHand(t *testing.T) {
	tr := smallTrial(t, "TIME")
	for _, c := range []struct {
		src        string
		incl, excl [6]float64
	}{
		{"PAPI_FP_OPS / TIME",
			[6]float64{10, 15, 6, 10, 50.0 / 3, 0},
			[6]float64{10, 10, 10, 10, undef, 0}},
		{"(PAPI_FP_OPS - TIME) * 2 + 1",
			[6]float64{1801, 5601, 1501, 1081, 4701, 0},
			[6]float64{721, 901, 541, 1081, 51, 0}},
		{"TIME / CALLS",
			[6]float64{100, 200, 150, 12, 150.0 / 7, 0},
			[6]float64{40, 50, 30, 12, 0, 0}},
		{"CALLS + SUBROUTINES * 10",
			[6]float64{51, 71, 1, 5, 27, 0},
			[6]float64{51, 71, 1, 5, 27, 0}},
		{"SUBROUTINES / CALLS",
			[6]float64{5, 7, 0, 0, 2.0 / 7, 0},
			[6]float64{5, 7, 0, 0, 2.0 / 7, 0}},
		{"TIME == 0 ? 0 : PAPI_FP_OPS / TIME",
			[6]float64{10, 15, 6, 10, 50.0 / 3, 0},
			[6]float64{10, 10, 10, 10, 0, 0}},
		{"if TIME > 100 { 1 } else if TIME > 50 { 2 } else { 3 }",
			[6]float64{2, 1, 1, 2, 1, 0},
			[6]float64{3, 3, 3, 2, 3, 0}},
		{"-TIME ^ 0.5 + 2 ** 3 ** 2",
			[6]float64{502, 512 - math.Sqrt(200), 512 - math.Sqrt(150), 512 - math.Sqrt(60), 512 - math.Sqrt(150), 0},
			[6]float64{512 - math.Sqrt(40), 512 - math.Sqrt(50), 512 - math.Sqrt(30), 512 - math.Sqrt(60), 512, 0}},
		{"min(TIME, 100, PAPI_FP_OPS / 10) + max(CALLS, 2)",
			[6]float64{102, 102, 92, 65, 107, 0},
			[6]float64{42, 52, 32, 65, 7, 0}},
		{"log10(PAPI_FP_OPS) + log2(CALLS) + log(exp(1)) + sqrt(TIME) + abs(-2) + floor(1.7) + ceil(1.2)",
			[6]float64{3 + 0 + 1 + 10 + 2 + 1 + 2, math.Log10(3000) + 1 + math.Sqrt(200) + 5, math.Log10(900) + 1 + math.Sqrt(150) + 5,
				math.Log10(600) + math.Log2(5) + 1 + math.Sqrt(60) + 5, math.Log10(2500) + math.Log2(7) + 1 + math.Sqrt(150) + 5, 0},
			[6]float64{math.Log10(400) + 1 + math.Sqrt(40) + 5, math.Log10(500) + 1 + math.Sqrt(50) + 5, math.Log10(300) + 1 + math.Sqrt(30) + 5,
				math.Log10(600) + math.Log2(5) + 1 + math.Sqrt(60) + 5, math.Log10(25) + math.Log2(7) + 1 + 0 + 5, 0}},
		{"1 < CALLS < 6 ? 1 : 0",
			[6]float64{0, 0, 0, 1, 0, 0},
			[6]float64{0, 0, 0, 1, 0, 0}},
		// Comments are allowed.
		{"TIME /* µs */ * 2 // doubled",
			[6]float64{200, 400, 300, 120, 300, 0},
			[6]float64{80, 100, 60, 120, 0, 0}},
	} {
		check(t, tr, c.src, c.incl, c.excl)
	}
}

// TestDivisionByZero checks the rule: x/0 is undefined (NaN) for every x,
// 0/0 included, in every present cell; absent cells stay 0.
func TestDivisionByZero(t *testing.T) {
	tr := smallTrial(t, "TIME")
	u := [6]float64{undef, undef, undef, undef, undef, 0}
	for _, src := range []string{"0 / 0", "1 / 0", "-1 / 0", "TIME / 0", "0 / (TIME - TIME)", "1 / (1 / 0)", "(1 / 0) * 0", "(0 / 0) ^ 0"} {
		check(t, tr, src, u, u)
	}
	// 25/0 and a guard on the denominator.
	check(t, tr, "PAPI_FP_OPS / TIME", [6]float64{10, 15, 6, 10, 50.0 / 3, 0}, [6]float64{10, 10, 10, 10, undef, 0})
	check(t, tr, "TIME > 0 ? PAPI_FP_OPS / TIME : 0", [6]float64{10, 15, 6, 10, 50.0 / 3, 0}, [6]float64{10, 10, 10, 10, 0, 0})
}

// TestUndefined checks the other undefined results and how undefined
// propagates through functions, comparisons and logic.
func TestUndefined(t *testing.T) {
	tr := smallTrial(t, "TIME")
	u := [6]float64{undef, undef, undef, undef, undef, 0}
	for _, src := range []string{
		"log(0)", "log(-1)", "log2(0)", "log10(0)", "sqrt(-1)", "exp(1000)", "1e308 * 10", "1e308 + 1e308", "-1e308 - 1e308",
		"0 ^ -1", "(-8) ^ (1 / 3)", "min(1, 0 / 0)", "max(0 / 0, 1)", "abs(0 / 0)", "floor(0 / 0)", "ceil(0 / 0)", "-(0 / 0)",
		"0 / 0 > 1 ? 1 : 2", "0 / 0 == 0 / 0 ? 1 : 2", "0 / 0 != 1 ? 1 : 2", "!(0 / 0 > 1) ? 1 : 2",
		"1 > 0 && 0 / 0 > 1 ? 1 : 2", "1 < 0 || 0 / 0 > 1 ? 1 : 2",
	} {
		check(t, tr, src, u, u)
	}
	one := [6]float64{1, 1, 1, 1, 1, 0}
	two := [6]float64{2, 2, 2, 2, 2, 0}
	check(t, tr, "1 < 0 && 0 / 0 > 1 ? 1 : 2", two, two)  // false && undefined = false
	check(t, tr, "0 / 0 > 1 and 1 < 0 ? 1 : 2", two, two) // undefined && false = false
	check(t, tr, "1 > 0 || 0 / 0 > 1 ? 1 : 2", one, one)  // true || undefined = true
	check(t, tr, "0 / 0 > 1 or 1 > 0 ? 1 : 2", one, one)  // undefined || true = true
	check(t, tr, "1 > 0 ? 1 : 0 / 0", one, one)           // the other branch does not matter
	check(t, tr, "not (1 > 0) ? 0 / 0 : 2", two, two)     // not
	check(t, tr, "1e308 * 10 / 1e308 > 1 ? 1 : 2", u, u)  // overflow is undefined at once
	check(t, tr, "exp(709) / exp(709)", one, one)         // large but finite
	check(t, tr, "PAPI_FP_OPS / TIME > 12 ? 1 : 2", [6]float64{2, 1, 2, 2, 1, 0}, [6]float64{2, 2, 2, 2, undef, 0})
	check(t, tr, "TIME == 0 || PAPI_FP_OPS / TIME > 12 ? 1 : 2", [6]float64{2, 1, 2, 2, 1, 0}, [6]float64{2, 2, 2, 2, 1, 0})
	check(t, tr, "TIME > 0 && PAPI_FP_OPS / TIME > 12 ? 1 : 2", [6]float64{2, 1, 2, 2, 1, 0}, [6]float64{2, 2, 2, 2, 2, 0})
}

// TestMetricNames evaluates metric("name with spaces") and `name`.
func TestMetricNames(t *testing.T) {
	tr := smallTrial(t, "Time (s)")
	incl := [6]float64{10, 15, 6, 10, 50.0 / 3, 0}
	excl := [6]float64{10, 10, 10, 10, undef, 0}
	check(t, tr, `PAPI_FP_OPS / metric("Time (s)")`, incl, excl)
	check(t, tr, `metric('PAPI_FP_OPS') / metric("Time\u0020(s)")`, incl, excl)
	check(t, tr, "PAPI_FP_OPS / `Time (s)`", incl, excl)
	check(t, tr, "`PAPI_FP_OPS` / metric(`Time (s)`)", incl, excl)
	e, err := Compile("PAPI_FP_OPS / `Time (s)` + metric(\"Time (s)\") * 0 + CALLS * 0", Names(tr))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(e.Uses(), "|"); got != "PAPI_FP_OPS|Time (s)|CALLS" {
		t.Errorf("Uses = %q", got)
	}
}

// TestEvaluateBlocks evaluates a trial larger than a block and than a
// processor's chunk, against a direct computation.
func TestEvaluateBlocks(t *testing.T) {
	tr := generated(t, 300, 250)
	e, err := Compile("PAPI_FP_OPS / TIME + CALLS", Names(tr))
	if err != nil {
		t.Fatal(err)
	}
	incl, excl, err := Evaluate(tr, e)
	if err != nil {
		t.Fatal(err)
	}
	for c := range incl {
		wi, we := 0.0, 0.0
		if tr.Present.Get(c) {
			wi = fin(tr.Values[1].Inclusive[c]/tr.Values[0].Inclusive[c] + tr.Calls[c])
			we = fin(tr.Values[1].Exclusive[c]/tr.Values[0].Exclusive[c] + tr.Calls[c])
		}
		if !same(incl[c], wi) || !same(excl[c], we) {
			t.Fatalf("cell %d: %v %v, want %v %v", c, incl[c], excl[c], wi, we)
		}
	}
}

func TestEvaluateErrors(t *testing.T) {
	tr := smallTrial(t, "TIME")
	e, err := Compile("PAPI_L2_TCM / TIME", []string{"TIME", "PAPI_L2_TCM"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Evaluate(tr, e); err == nil || err.Error() != `expression "PAPI_L2_TCM / TIME" uses metric "PAPI_L2_TCM", which trial "small" does not have` {
		t.Errorf("missing metric: %v", err)
	}
	if _, _, err := Evaluate(nil, e); err == nil {
		t.Error("nil trial accepted")
	}
	ok, _ := Compile("TIME", Names(tr))
	tr.Values[0].Exclusive = tr.Values[0].Exclusive[:3]
	if _, _, err := Evaluate(tr, ok); err == nil || err.Error() != `trial "small": TIME has 6 inclusive and 3 exclusive values for 2 nodes × 3 threads` {
		t.Errorf("short column: %v", err)
	}
}
