package metrics

import (
	"strconv"
	"strings"

	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser/lexer"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Builtin is a ready-made derived metric over PAPI preset counters, offered
// by Available when the trial has the metrics it needs.
type Builtin struct {
	// Name is the name to give the derived metric ("IPC").
	Name string
	// Title describes the quantity ("Instructions per cycle").
	Title string
	// Expr is the expression over the trial's metric names, for Compile.
	Expr string
	// Unit is the unit of the values.
	Unit string
}

// variant is one way of computing a builtin; "{time}" in expr stands for the
// trial's time metric.
type variant struct {
	name, title, expr, unit string
	needs                   []string
}

// builtins lists the ready-made metrics; of each group, the first variant
// whose metrics the trial has is offered.
var builtins = [][]variant{
	{
		{"MFLOPS", "Floating-point operation rate", "PAPI_FP_OPS / {time}",
			"MFLOP/s (floating-point operations per microsecond)", []string{"PAPI_FP_OPS", "{time}"}},
		{"MFLOPS", "Floating-point instruction rate (PAPI_FP_INS, as PAPI_FP_OPS is absent)", "PAPI_FP_INS / {time}",
			"millions of floating-point instructions per second (per microsecond)", []string{"PAPI_FP_INS", "{time}"}},
	},
	{
		{"MIPS", "Instruction rate", "PAPI_TOT_INS / {time}",
			"millions of instructions per second (per microsecond)", []string{"PAPI_TOT_INS", "{time}"}},
	},
	{
		{"IPC", "Instructions per cycle", "PAPI_TOT_INS / PAPI_TOT_CYC",
			"instructions per cycle", []string{"PAPI_TOT_INS", "PAPI_TOT_CYC"}},
	},
	{
		{"L1_DCM_RATIO", "L1 data cache miss ratio", "PAPI_L1_DCM / PAPI_L1_DCA",
			"misses per access (0 to 1)", []string{"PAPI_L1_DCM", "PAPI_L1_DCA"}},
		{"L1_DCM_PER_INS", "L1 data cache misses per instruction (PAPI_L1_DCA is absent)", "PAPI_L1_DCM / PAPI_TOT_INS",
			"misses per instruction", []string{"PAPI_L1_DCM", "PAPI_TOT_INS"}},
	},
	{
		{"L2_MISS_RATIO", "L2 cache miss ratio", "PAPI_L2_TCM / PAPI_L2_TCA",
			"misses per access (0 to 1)", []string{"PAPI_L2_TCM", "PAPI_L2_TCA"}},
		{"L2_DCM_RATIO", "L2 data cache miss ratio (PAPI_L2_TCM or PAPI_L2_TCA is absent)", "PAPI_L2_DCM / PAPI_L2_DCA",
			"misses per access (0 to 1)", []string{"PAPI_L2_DCM", "PAPI_L2_DCA"}},
	},
	{
		{"L3_MISS_RATIO", "L3 cache miss ratio", "PAPI_L3_TCM / PAPI_L3_TCA",
			"misses per access (0 to 1)", []string{"PAPI_L3_TCM", "PAPI_L3_TCA"}},
	},
	{
		{"BR_MSP_RATIO", "Branch misprediction rate", "PAPI_BR_MSP / PAPI_BR_INS",
			"mispredictions per branch instruction (0 to 1)", []string{"PAPI_BR_MSP", "PAPI_BR_INS"}},
		{"BR_MSP_RATIO", "Branch misprediction rate (per conditional branch; PAPI_BR_INS is absent)", "PAPI_BR_MSP / PAPI_BR_CN",
			"mispredictions per conditional branch (0 to 1)", []string{"PAPI_BR_MSP", "PAPI_BR_CN"}},
	},
	{
		{"FP_INS_FRACTION", "Fraction of floating-point instructions", "PAPI_FP_INS / PAPI_TOT_INS",
			"floating-point instructions per instruction (0 to 1)", []string{"PAPI_FP_INS", "PAPI_TOT_INS"}},
	},
}

// Available returns the built-in derived metrics that can be computed from
// the metrics named in metrics, in this order (for each, the first variant
// whose metrics exist):
//
//   - MFLOPS = PAPI_FP_OPS / TIME, or PAPI_FP_INS / TIME when PAPI_FP_OPS is
//     absent: FLOP per microsecond, that is MFLOP/s;
//   - MIPS = PAPI_TOT_INS / TIME: instructions per microsecond (MIPS);
//   - IPC = PAPI_TOT_INS / PAPI_TOT_CYC: instructions per cycle;
//   - L1_DCM_RATIO = PAPI_L1_DCM / PAPI_L1_DCA: misses per access, or
//     L1_DCM_PER_INS = PAPI_L1_DCM / PAPI_TOT_INS when PAPI_L1_DCA is absent:
//     misses per instruction;
//   - L2_MISS_RATIO = PAPI_L2_TCM / PAPI_L2_TCA, or L2_DCM_RATIO =
//     PAPI_L2_DCM / PAPI_L2_DCA: misses per access;
//   - L3_MISS_RATIO = PAPI_L3_TCM / PAPI_L3_TCA: misses per access;
//   - BR_MSP_RATIO = PAPI_BR_MSP / PAPI_BR_INS, or PAPI_BR_MSP / PAPI_BR_CN
//     when PAPI_BR_INS is absent: mispredictions per branch;
//   - FP_INS_FRACTION = PAPI_FP_INS / PAPI_TOT_INS.
//
// TIME stands for the trial's time metric (TAU measures time in
// microseconds): the metric named TIME if there is one, else the first
// whose name contains TIME (P_WALL_CLOCK_TIME, ...). A builtin whose name is
// already a metric (a derived metric computed before) is left out.
func Available(metrics []string) []Builtin {
	have := map[string]bool{}
	for _, m := range metrics {
		have[m] = true
	}
	timeName := ""
	if have["TIME"] {
		timeName = "TIME"
	} else {
		for _, m := range metrics {
			if (drg.Metric{Name: m}).IsTime() {
				timeName = m
				break
			}
		}
	}
	var out []Builtin
	for _, group := range builtins {
		for _, v := range group {
			ok := true
			for _, need := range v.needs {
				if need == "{time}" {
					ok = ok && timeName != ""
				} else {
					ok = ok && have[need]
				}
			}
			if !ok {
				continue
			}
			if !have[v.name] {
				out = append(out, Builtin{
					Name:  v.name,
					Title: v.title,
					Expr:  strings.ReplaceAll(v.expr, "{time}", Ref(timeName)),
					Unit:  v.unit,
				})
			}
			break
		}
	}
	return out
}

// Ref returns how to write the metric name in an expression: the name
// itself when it reads as one identifier (TIME, PAPI_FP_OPS,
// P_WALL_CLOCK_TIME), else metric("name") with the name quoted ("Time (s)",
// "PAPI_NATIVE:cycles", "L1-misses", a keyword such as "in").
func Ref(name string) string {
	tokens, err := lexer.Lex(file.NewSource(name))
	if err == nil && len(tokens) == 2 && tokens[0].Kind == lexer.Identifier && tokens[0].Value == name &&
		name != "true" && name != "false" && name != "nil" {
		return name
	}
	return "metric(" + strconv.Quote(name) + ")"
}
