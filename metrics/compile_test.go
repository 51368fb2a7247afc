package metrics

import (
	"errors"
	"strings"
	"testing"
)

var testMetrics = []string{"TIME", "PAPI_FP_OPS", "Time (s)"}

// metricList is the tail of the unknown-metric message for testMetrics.
const metricList = `; the metrics are "TIME", "PAPI_FP_OPS", "Time (s)", and the pseudo-metrics CALLS, SUBROUTINES`

const funcList = "; the functions are min, max, abs, sqrt, log, log2, log10, exp, floor, ceil, metric"

func TestCompileRejects(t *testing.T) {
	for _, c := range []struct{ src, err string }{
		// Syntax errors, with the position and the caret line.
		{"TIME +", "unexpected token EOF (1:6)\n | TIME +\n | .....^"},
		{"TIME +\n* 2", "unexpected token Operator(\"*\") (2:1)\n | * 2\n | ^"},
		{"(TIME", "unexpected token EOF (1:5)\n | (TIME\n | ....^"},
		{`metric("x`, "literal not terminated (1:10)\n | metric(\"x\n | .........^"},
		{"TIME @ 2", "unrecognized character: U+0040 '@' (1:6)\n | TIME @ 2\n | .....^"},
		{"1e400", "invalid float literal: strconv.ParseFloat: parsing \"1e400\": value out of range (1:5)\n | 1e400\n | ....^"},
		{"  ", "expression is empty"},
		// Unknown metric: the metrics are listed, a case slip is pointed out.
		{"PAPI_L2_TCM / TIME", `unknown metric "PAPI_L2_TCM"` + metricList + " (1:1)\n | PAPI_L2_TCM / TIME\n | ^"},
		{"PAPI_FP_OPS / time", `unknown metric "time" (did you mean "TIME"?)` + metricList + " (1:15)\n | PAPI_FP_OPS / time\n | ..............^"},
		{`metric("Time(s)")`, `unknown metric "Time(s)"` + metricList + " (1:8)\n | metric(\"Time(s)\")\n | .......^"},
		{"`Time(s)` * 2", `unknown metric "Time(s)"` + metricList + " (1:1)\n | `Time(s)` * 2\n | ^"},
		{"sqrt + 1", `unknown metric "sqrt"` + metricList + " (1:1)\n | sqrt + 1\n | ^"},
		{"$env", `unknown metric "$env"` + metricList + " (1:1)\n | $env\n | ^"},
		// Unknown functions and builtins.
		{"foo(TIME)", `unknown function "foo"` + funcList + " (1:1)\n | foo(TIME)\n | ^"},
		{`len("x")`, `unknown function "len"` + funcList + " (1:1)\n | len(\"x\")\n | ^"},
		{"2 * upper(TIME)", `unknown function "upper"` + funcList + " (1:5)\n | 2 * upper(TIME)\n | ....^"},
		{"sum(TIME)", `unknown function "sum"` + funcList + " (1:1)\n | sum(TIME)\n | ^"},
		{"filter(TIME, # > 1)", "closures (#) are not allowed (1:14)\n | filter(TIME, # > 1)\n | .............^"},
		{"all(TIME, {.x > 1})", "member access (.) is not allowed (1:12)\n | all(TIME, {.x > 1})\n | ...........^"},
		// Wrong number or kind of arguments.
		{"sqrt(TIME, 2)", "sqrt takes 1 argument, got 2 (1:1)\n | sqrt(TIME, 2)\n | ^"},
		{"abs()", "abs takes 1 argument, got 0 (1:1)\n | abs()\n | ^"},
		{"min(TIME)", "min takes two or more arguments, got 1 (1:1)\n | min(TIME)\n | ^"},
		{"metric(TIME)", "metric takes a quoted metric name, as in metric(\"Time (s)\") (1:8)\n | metric(TIME)\n | .......^"},
		{`metric("TIME", "x")`, "metric takes 1 argument, got 2 (1:1)\n | metric(\"TIME\", \"x\")\n | ^"},
		// Outside the language.
		{"TIME.x", "member access (.) is not allowed (1:5)\n | TIME.x\n | ....^"},
		{"TIME?.x", "member access (?.) is not allowed (1:5)\n | TIME?.x\n | ....^"},
		{"TIME[0]", "indexing and arrays ([ ]) are not allowed (1:5)\n | TIME[0]\n | ....^"},
		{"[1, 2]", "indexing and arrays ([ ]) are not allowed (1:1)\n | [1, 2]\n | ^"},
		{"{a: 1}", "maps are not allowed (1:1)\n | {a: 1}\n | ^"},
		{"TIME | sqrt()", "pipes (|) are not allowed (1:6)\n | TIME | sqrt()\n | .....^"},
		{`"x" + TIME`, "a quoted string is allowed only as the argument of metric(...); write metric(\"x\") for a metric name (1:1)\n | \"x\" + TIME\n | ^"},
		{"b'x'", "byte strings are not allowed (1:1)\n | b'x'\n | ^"},
		{"true ? 1 : 2", "true and false are not allowed; write a comparison (1:1)\n | true ? 1 : 2\n | ^"},
		{"nil", "nil is not allowed (1:1)\n | nil\n | ^"},
		{"let x = TIME; x", "variables (let) are not allowed (1:1)\n | let x = TIME; x\n | ^"},
		{"TIME; 2", "sequences (;) are not allowed (1:5)\n | TIME; 2\n | ....^"},
		{"TIME % 2", "the % operator is not allowed (1:6)\n | TIME % 2\n | .....^"},
		{"TIME ?? 1", "the ?? operator is not allowed (1:6)\n | TIME ?? 1\n | .....^"},
		{"1..2", "ranges (..) are not allowed (1:2)\n | 1..2\n | .^"},
		{"TIME in 1", "the in operator is not allowed (1:6)\n | TIME in 1\n | .....^"},
		{"TIME not in 1", "the in operator is not allowed (1:10)\n | TIME not in 1\n | .........^"},
		{"TIME matches 1", "the matches operator is not allowed (1:6)\n | TIME matches 1\n | .....^"},
		{"TIME = 1", "assignment (=) is not allowed; == compares (1:6)\n | TIME = 1\n | .....^"},
		{"::TIME", "the :: operator is not allowed (1:1)\n | ::TIME\n | ^"},
		// Numbers and conditions mixed up.
		{"TIME > 1", "the expression yields a condition (true or false), not a number; use cond ? a : b to turn it into one (1:6)\n | TIME > 1\n | .....^"},
		{"TIME ? 1 : 2", "the condition of ?: or if needs a condition (a comparison), not a number (1:1)\n | TIME ? 1 : 2\n | ^"},
		{"TIME ?: 2", "the condition of ?: or if needs a condition (a comparison), not a number (1:1)\n | TIME ?: 2\n | ^"},
		{"if TIME { 1 } else { 2 }", "the condition of ?: or if needs a condition (a comparison), not a number (1:4)\n | if TIME { 1 } else { 2 }\n | ...^"},
		{"TIME > 1 ? 1 : TIME > 2", "the two branches of ?: or if must both be numbers or both be conditions (1:21)\n | TIME > 1 ? 1 : TIME > 2\n | ....................^"},
		{"(TIME > 1) + 1", "operator + needs a number, not a condition (true or false) (1:7)\n | (TIME > 1) + 1\n | ......^"},
		{"TIME == (TIME > 1) ? 1 : 0", "operator == needs a number, not a condition (true or false) (1:15)\n | TIME == (TIME > 1) ? 1 : 0\n | ..............^"},
		{"TIME && TIME > 1 ? 1 : 0", "operator && needs a condition (a comparison), not a number (1:1)\n | TIME && TIME > 1 ? 1 : 0\n | ^"},
		{"!TIME ? 1 : 0", "! needs a condition (a comparison), not a number (1:2)\n | !TIME ? 1 : 0\n | .^"},
		{"-(TIME > 1)", "unary - needs a number, not a condition (true or false) (1:8)\n | -(TIME > 1)\n | .......^"},
		{"sqrt(TIME > 1)", "sqrt needs a number, not a condition (true or false) (1:11)\n | sqrt(TIME > 1)\n | ..........^"},
		// Size limits.
		{strings.Repeat("TIME + ", 1462) + "TIME", "expression is 10238 bytes long; at most 4096 bytes are allowed"},
		{"1" + strings.Repeat("+1", 128), "expression has more than 256 nodes (names, numbers, operators and calls) (1:257)\n | " +
			"1" + strings.Repeat("+1", 128) + "\n | " + strings.Repeat(".", 256) + "^"},
	} {
		e, err := Compile(c.src, testMetrics)
		if err == nil {
			t.Errorf("Compile(%.60q) accepted: %v", c.src, e.code)
			continue
		}
		if err.Error() != c.err {
			t.Errorf("Compile(%.60q):\n got %q\nwant %q", c.src, err.Error(), c.err)
		}
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("Compile(%.60q): error %T, want *Error", c.src, err)
		}
	}
}

// TestCompileNodeLimit checks the node count of the compiler itself, which
// also counts what expr's parser does not (if/else nodes, the shared middle
// operands of a < b < c).
func TestCompileNodeLimit(t *testing.T) {
	// 60 levels of "if TIME > 0 { 1 } else": expr's parser counts 4 nodes a
	// level (241 in all), the compiler 5 (301).
	src := strings.Repeat("if TIME > 0 { 1 } else ", 60) + "{ 2 }"
	_, err := Compile(src, testMetrics)
	var ce *Error
	if !errors.As(err, &ce) || ce.Message != "expression has more than 256 nodes (names, numbers, operators and calls)" || ce.Line != 1 || ce.Column != 1182 {
		t.Errorf("deep if: %v", err)
	}
	// 51 levels (256 nodes) pass.
	if _, err := Compile(strings.Repeat("if TIME > 0 { 1 } else ", 51)+"{ 2 }", testMetrics); err != nil {
		t.Errorf("51 levels: %v", err)
	}
	// The largest accepted sum: 128 ones and 127 pluses.
	if _, err := Compile("1"+strings.Repeat("+1", 127), testMetrics); err != nil {
		t.Errorf("255 nodes: %v", err)
	}
	// 4096 bytes are allowed.
	src = strings.Repeat(" ", MaxSourceBytes-4) + "TIME"
	if _, err := Compile(src, testMetrics); err != nil {
		t.Errorf("4096 bytes: %v", err)
	}
	if _, err := Compile(" "+src, testMetrics); err == nil || err.Error() != "expression is 4097 bytes long; at most 4096 bytes are allowed" {
		t.Errorf("4097 bytes: %v", err)
	}
}

func TestCompileAccepts(t *testing.T) {
	for _, c := range []struct {
		src  string
		uses string
	}{
		{"PAPI_FP_OPS / TIME", "PAPI_FP_OPS TIME"},
		{"(PAPI_FP_OPS / TIME) * 100", "PAPI_FP_OPS TIME"},
		{`metric("Time (s)") + metric('TIME') + ` + "`PAPI_FP_OPS`", "Time (s) TIME PAPI_FP_OPS"},
		{"CALLS / SUBROUTINES", "CALLS SUBROUTINES"},
		{"TIME > 0 and not (TIME < 1 or TIME == 2) ? -TIME ** 2 : +TIME ^ 0.5", "TIME"},
		{"if TIME > 1 { 2 } else if TIME > 0 { 1 } else { 0 }", "TIME"},
		{"min(TIME, 1, 2) + max(1, TIME) + abs(-TIME) + sqrt(TIME) + log(TIME) + log2(TIME) + log10(TIME) + exp(TIME) + floor(TIME) + ceil(TIME)", "TIME"},
		{"0x1F + 0o17 + 0b101 + 1_000 + 1e-6 + .5 + 2.", ""},
		{"TIME // per call\n / CALLS /* calls */", "TIME CALLS"},
		{"(TIME > 1) ? (TIME > 2) ? 1 : 2 : 3", "TIME"},
	} {
		e, err := Compile(c.src, testMetrics)
		if err != nil {
			t.Errorf("Compile(%q): %v", c.src, err)
			continue
		}
		if got := strings.Join(e.Uses(), " "); got != c.uses {
			t.Errorf("Compile(%q).Uses() = %q, want %q", c.src, got, c.uses)
		}
		if e.String() != c.src {
			t.Errorf("String() = %q", e.String())
		}
	}
	// With no metric at all, only the pseudo-metrics exist.
	if _, err := Compile("TIME", nil); err == nil || err.Error() != "unknown metric \"TIME\"; there is no metric, only the pseudo-metrics CALLS, SUBROUTINES (1:1)\n | TIME\n | ^" {
		t.Errorf("no metrics: %v", err)
	}
}

func TestRef(t *testing.T) {
	for name, want := range map[string]string{
		"TIME":               "TIME",
		"P_WALL_CLOCK_TIME":  "P_WALL_CLOCK_TIME",
		"PAPI_FP_OPS":        "PAPI_FP_OPS",
		"Time (s)":           `metric("Time (s)")`,
		"PAPI_NATIVE:cycles": `metric("PAPI_NATIVE:cycles")`,
		"L1-misses":          `metric("L1-misses")`,
		"in":                 `metric("in")`,
		"true":               `metric("true")`,
		`a"b\c`:              `metric("a\"b\\c")`,
		"1x":                 `metric("1x")`,
		"":                   `metric("")`,
	} {
		got := Ref(name)
		if got != want {
			t.Errorf("Ref(%q) = %q, want %q", name, got, want)
			continue
		}
		if name == "" {
			continue
		}
		e, err := Compile(got+" * 2", []string{name})
		if err != nil || len(e.Uses()) != 1 || e.Uses()[0] != name {
			t.Errorf("Compile(Ref(%q)): %v", name, err)
		}
	}
}
