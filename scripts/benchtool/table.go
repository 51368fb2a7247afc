package main

import (
	"fmt"
	"math"
	"strings"
)

// Row is one line of the benchmark table: a figure measured by this tool
// next to a reference measured in the same run on the same data.
type Row struct {
	// Step numbers the part of the benchmark (1 parse, 2 PostgreSQL ingest,
	// 3 SQLite ingest, 4 fetch, 5 analyses, 6 end to end).
	Step int
	// Figure says what was measured.
	Figure string
	// Value is the measured figure, in Unit.
	Value float64
	Unit  string
	// Ref is the reference figure, in RefUnit, and RefWhat what it is.
	Ref     float64
	RefUnit string
	RefWhat string
	// Notes holds anything else (peak memory, growth exponents, sizes).
	Notes string
}

// Ratio is Value/Ref: for rates (MB/s, rows/s, values/s) the fraction of the
// reference's speed reached (1 = as fast); for times and memory, how many
// times the reference it takes. It is NaN when Ref is 0.
func (r Row) Ratio() float64 {
	if r.Ref == 0 {
		return math.NaN()
	}
	return r.Value / r.Ref
}

// Render returns the rows as one markdown table with the columns step,
// figure, measured, reference, ratio (Row.Ratio, two decimals) and notes.
// A "|" inside a cell is escaped.
func Render(rows []Row) string {
	var b strings.Builder
	b.WriteString("| # | figure | measured | reference (same run, same data) | ratio | notes |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, r := range rows {
		cells := []string{
			fmt.Sprint(r.Step),
			r.Figure,
			Num(r.Value) + " " + r.Unit,
			strings.TrimSpace(r.RefWhat + ": " + Num(r.Ref) + " " + r.RefUnit),
			fmt.Sprintf("%.2f", r.Ratio()),
			r.Notes,
		}
		for i, c := range cells {
			cells[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	return b.String()
}

// Num formats v for the table: integers of 1,000 and more with thousands
// separators, smaller values with three significant digits.
func Num(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Sprint(v)
	case math.Abs(v) >= 1000:
		s := fmt.Sprintf("%.0f", math.Abs(v))
		var out []byte
		for i := range s {
			if i > 0 && (len(s)-i)%3 == 0 {
				out = append(out, ',')
			}
			out = append(out, s[i])
		}
		if v < 0 {
			return "-" + string(out)
		}
		return string(out)
	default:
		return fmt.Sprintf("%.3g", v)
	}
}
