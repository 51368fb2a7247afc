package metrics

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/parser"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// fuzzTrial has three metrics (one named with blanks), three threads and
// three nodes with awkward values: zeros, huge and tiny numbers, and an
// absent cell.
func fuzzTrial(t testing.TB) *drg.Trial {
	t.Helper()
	b, err := drg.NewBuilder([]drg.ThreadID{{Node: 0}, {Node: 1}, {Node: 2}})
	if err != nil {
		t.Fatal(err)
	}
	ms := []int{b.Metric("TIME"), b.Metric("PAPI_FP_OPS"), b.Metric("Time (s)")}
	vals := []float64{0, 1, 2.5, 1e308, 1e-300, 7, 0, 1000, 3}
	k := 0
	for n, name := range []string{"main", "main => f", "g"} {
		node := b.Node(name)
		for th := 0; th < 3; th++ {
			if n == 2 && th == 1 {
				continue
			}
			for _, m := range ms {
				b.AddValues(node, th, m, vals[k%len(vals)], vals[(k+4)%len(vals)])
				k++
			}
			b.AddCalls(node, th, vals[k%len(vals)], float64(th))
			k++
		}
	}
	tr, err := b.Finish("fuzz", drg.Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// oracle evaluates a parsed expression on one cell with a straightforward
// recursive walk, following the rules of the package documentation, for
// comparison with the vector machine. value returns a metric's value.
func oracle(src string, n ast.Node, value func(string) float64) float64 {
	nan := math.NaN()
	fin := func(x float64) float64 {
		if math.IsInf(x, 0) {
			return nan
		}
		return x
	}
	defined := func(xs ...float64) bool {
		for _, x := range xs {
			if math.IsNaN(x) {
				return false
			}
		}
		return true
	}
	cond := func(ok bool) float64 {
		if ok {
			return 1
		}
		return 0
	}
	ev := func(n ast.Node) float64 { return oracle(src, n, value) }
	switch n := n.(type) {
	case *ast.IntegerNode:
		return float64(n.Value)
	case *ast.FloatNode:
		return n.Value
	case *ast.IdentifierNode:
		return value(n.Value)
	case *ast.StringNode:
		return value(n.Value)
	case *ast.UnaryNode:
		x := ev(n.Node)
		switch n.Operator {
		case "-":
			return -x
		case "+":
			return x
		default:
			if !defined(x) {
				return nan
			}
			return cond(x == 0)
		}
	case *ast.ConditionalNode:
		c := ev(n.Cond)
		switch {
		case !defined(c):
			return nan
		case c == 1:
			return ev(n.Exp1)
		default:
			return ev(n.Exp2)
		}
	case *ast.CallNode:
		name := n.Callee.(*ast.IdentifierNode).Value
		if name == "metric" {
			return value(n.Arguments[0].(*ast.StringNode).Value)
		}
		var args []float64
		for _, a := range n.Arguments {
			args = append(args, ev(a))
		}
		x := args[0]
		switch name {
		case "min", "max":
			for _, y := range args[1:] {
				switch {
				case !defined(x, y):
					x = nan
				case name == "min":
					x = math.Min(x, y)
				default:
					x = math.Max(x, y)
				}
			}
			return x
		case "abs":
			return math.Abs(x)
		case "sqrt":
			return math.Sqrt(x)
		case "log":
			return fin(math.Log(x))
		case "log2":
			return fin(math.Log2(x))
		case "log10":
			return fin(math.Log10(x))
		case "exp":
			return fin(math.Exp(x))
		case "floor":
			return math.Floor(x)
		case "ceil":
			return math.Ceil(x)
		}
	case *ast.BinaryNode:
		x, y := ev(n.Left), ev(n.Right)
		switch n.Operator {
		case "+":
			return fin(x + y)
		case "-":
			return fin(x - y)
		case "*":
			return fin(x * y)
		case "/":
			if y == 0 {
				return nan
			}
			return fin(x / y)
		case "^", "**":
			if !defined(x, y) {
				return nan
			}
			return fin(math.Pow(x, y))
		case "&&", "and":
			if x == 0 || y == 0 {
				return 0
			}
			if !defined(x, y) {
				return nan
			}
			return 1
		case "||", "or":
			if x == 1 || y == 1 {
				return 1
			}
			if !defined(x, y) {
				return nan
			}
			return 0
		}
		if !defined(x, y) {
			return nan
		}
		switch n.Operator {
		case "<":
			return cond(x < y)
		case "<=":
			return cond(x <= y)
		case ">":
			return cond(x > y)
		case ">=":
			return cond(x >= y)
		case "==":
			return cond(x == y)
		case "!=":
			return cond(x != y)
		}
	}
	panic("oracle: unexpected node " + n.String() + " in accepted expression " + src)
}

// FuzzCompile compiles arbitrary text: it must never panic, a rejection must
// be an *Error, and an accepted expression must evaluate without panic to a
// finite number or NaN in every present cell (0 in absent ones), equal to
// the oracle's value.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		"PAPI_FP_OPS / TIME", "(PAPI_FP_OPS / TIME) * 100", `metric("Time (s)") / CALLS`, "`Time (s)` - SUBROUTINES",
		"TIME > 0 ? PAPI_FP_OPS / TIME : 0", "if TIME > 1 { 2 } else if TIME > 0 { 1 } else { 0 }",
		"min(TIME, 1, PAPI_FP_OPS) + max(1, TIME) + abs(-TIME) + sqrt(TIME) + log(TIME) + log2(TIME) + log10(TIME)",
		"exp(TIME) + floor(TIME / 3) + ceil(TIME / 3)", "-TIME ^ 2 ** 0.5", "0 / 0", "1 / 0", "log(0)",
		"TIME > 0 && (PAPI_FP_OPS / TIME > 1 || !(CALLS < 2)) ? 1 : 0", "1 < TIME < 3 ? 1 : 0",
		"TIME not in 1", "TIME.x", "TIME[0]", "TIME | sqrt()", `len("x")`, "filter(TIME, # > 1)", "{a: 1}", "[1]",
		"TIME +", "((TIME)", "let x = 1; x", "1..2", "TIME ?? 1", "TIME % 2", `"x"`, "true", "nil", "1e400",
		"0x1F + 0b1 + 0o7 + 1_0", "TIME // c\n+ 1 /* d */", "é", "TIME ?: 1", "metric(TIME)", "sqrt()",
		strings.Repeat("(", 100) + "TIME" + strings.Repeat(")", 100), "1" + strings.Repeat("+1", 130),
	} {
		f.Add(s)
	}
	tr := fuzzTrial(f)
	cfg := conf.CreateNew()
	expr.DisableAllBuiltins()(cfg)
	for name := range cfg.Disabled {
		delete(cfg.Builtins, name)
	}
	nt := len(tr.Threads)
	f.Fuzz(func(t *testing.T, src string) {
		e, err := Compile(src, Names(tr))
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) || ce.Message == "" || (ce.Line == 0) != (ce.Column == 0) {
				t.Fatalf("Compile(%q): bad error %T %v", src, err, err)
			}
			return
		}
		incl, excl, err := Evaluate(tr, e)
		if err != nil {
			t.Fatalf("Evaluate(%q): %v", src, err)
		}
		tree, err := parser.ParseWithConfig(src, cfg)
		if err != nil {
			t.Fatalf("accepted %q does not parse: %v", src, err)
		}
		for c := range incl {
			if !tr.Present.Get(c) {
				if incl[c] != 0 || excl[c] != 0 {
					t.Fatalf("%q: absent cell %d is %v %v", src, c, incl[c], excl[c])
				}
				continue
			}
			for pass, got := range []float64{incl[c], excl[c]} {
				if math.IsInf(got, 0) {
					t.Fatalf("%q: cell %d is infinite", src, c)
				}
				value := func(name string) float64 {
					switch name {
					case Calls:
						return tr.Calls[c]
					case Subroutines:
						return tr.Subroutines[c]
					}
					v := tr.Values[tr.MetricIndex(name)]
					if pass == 0 {
						return v.Inclusive[c]
					}
					return v.Exclusive[c]
				}
				want := fin(oracle(src, tree.Node, value))
				if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
					t.Fatalf("%q: cell %d (node %d thread %d) pass %d = %v, oracle %v", src, c, c/nt, c%nt, pass, got, want)
				}
			}
		}
	})
}
