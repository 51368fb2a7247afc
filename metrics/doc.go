// Package metrics computes derived metrics of a trial: expressions over
// metric names such as
//
//	PAPI_FP_OPS / TIME
//	PAPI_L2_TCM / PAPI_L2_TCA
//	(PAPI_TOT_INS / PAPI_TOT_CYC) * 100
//
// evaluated on every (node, thread) cell of the trial, once over the
// inclusive values of the metrics and once over the exclusive ones (the
// "Metric ratio" analysis of DESIGN.md). Compile checks an expression
// against the trial's metric names, Evaluate computes it, AddDerived appends
// it to the trial as a metric with Derived set (TAUdb metric.derived = true),
// and Available lists ready-made ratios of PAPI counters (IPC, MFLOPS, cache
// miss ratios ...).
//
// # Language
//
// Expressions are parsed by github.com/expr-lang/expr and restricted to:
//
//   - number literals: 12, 1.5, .5, 1e-6, 1_000_000, 0x1F, 0o17, 0b101; every
//     number is a float64;
//   - metric names: an identifier (letters, digits, _ and $, not starting
//     with a digit, case-sensitive), such as TIME, PAPI_FP_OPS or
//     P_WALL_CLOCK_TIME, is the value of that metric. Any other name, such
//     as "Time (s)", "PAPI_NATIVE:cycles" or "L1-misses", is written
//     metric("Time (s)") (a double- or single-quoted string with Go's escapes)
//     or in backquotes, `Time (s)` (a backquote inside the name is written
//     twice). Ref returns the way to write a given name;
//   - the pseudo-metrics CALLS (calls of the node on the thread) and
//     SUBROUTINES (calls it made to other timed regions), the same in the
//     inclusive and the exclusive pass;
//   - arithmetic: a + b, a - b, a * b, a / b, a ^ b or a ** b (power), -a, +a;
//   - comparisons of numbers: <, <=, >, >=, ==, != (a < b < c means
//     a < b && b < c); they give conditions, which are not numbers;
//   - logic on conditions: && or and, || or or, ! or not (write !(a > b));
//   - choice: cond ? a : b, and if cond { a } else { b } (also else if);
//     both branches are numbers (or both conditions);
//   - parentheses, and comments // ... and /* ... */;
//   - the functions min(a, b, ...) and max(a, b, ...) (two or more
//     arguments), abs(x), sqrt(x), log(x) (natural), log2(x), log10(x),
//     exp(x), floor(x), ceil(x), and metric("name").
//
// Precedence, from tightest: ^ and ** (right-associative); unary - and +;
// * and /; binary + and -; comparisons; && and; || or; ?:. So -2^2 is -4 and
// 2^3^2 is 512. The whole expression must be a number.
//
// Anything else of expr's language is rejected by Compile: strings other
// than the argument of metric (or a backquoted name), true, false, nil,
// member access (a.b, a?.b), indexing and slices, arrays, maps, closures
// (#), pipes (|), ranges (..), let, sequences (;), %, ??, in, matches,
// contains, startsWith, endsWith, and every builtin (len, filter, map, all,
// sum, ...) or other function. Compile also rejects an expression longer
// than MaxSourceBytes bytes or with more than MaxNodes AST nodes; as the
// language has no loops, a cell's evaluation costs at most MaxNodes
// operations. Errors give the line and column and the source line with a
// caret, as expr's own errors do; an unknown metric's error lists the
// metrics.
//
// # Undefined values and division by zero
//
// The value of a present cell is a finite number or NaN, which means
// undefined and which should be shown as "undefined" and stored as NULL:
//
//   - x / 0 is undefined for every x, including 0 / 0 (for example a rate
//     over a region that took no time). PerfExplorer's DeriveMetricOperation
//     writes 0 instead; write b == 0 ? 0 : a / b to get that;
//   - so is any result that would be infinite or not a number: overflow,
//     0 ^ -1, log(0), log(-1), sqrt(-1), exp(1000); an infinite input value
//     too;
//   - undefined propagates: arithmetic or a function with an undefined
//     operand is undefined (also x ^ 0, min and max), and so is a comparison;
//   - && and || follow three-valued (Kleene, SQL) logic: false && undefined
//     is false, true || undefined is true, otherwise undefined; ! undefined
//     is undefined;
//   - cond ? a : b is undefined when cond is, else it is the chosen branch,
//     whatever the other branch is, so a guard such as
//     PAPI_TOT_CYC > 0 ? PAPI_TOT_INS / PAPI_TOT_CYC : 0 is never undefined.
//
// A cell where the thread has no record for the node is not evaluated: its
// value is 0 and the trial's presence bitmap tells it apart.
//
// # Units
//
// A derived metric has the units of its formula: TAU measures time in
// microseconds, so a count divided by TIME is a count per microsecond, that
// is millions per second (PAPI_FP_OPS / TIME is in MFLOP/s), and a count
// divided by a count is a ratio.
//
// # Evaluation
//
// Compile turns the expression into a program for a small vector machine;
// Evaluate runs it over blocks of 512 cells, each operation one loop over
// the block reading the trial's columns in place, with no allocation per
// cell, splitting large trials over the processors.
package metrics
