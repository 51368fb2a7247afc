package main

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// defaultRows is the default of --rows: -1, as many rows per table as fit
// the whole result in textLines lines (at least minRows per table).
// Tables are sorted with what matters most first, and the JSON and CSV
// formats always hold every row.
const defaultRows = -1

// textLines is the number of lines a result's text output aims for when
// --rows is left at its default; minRows the fewest rows a table then gets.
const (
	textLines = 100
	minRows   = 5
)

// maxNameWidth is the widest a region name is printed in a text table;
// longer C/C++ signatures are shortened (shortName).
const maxNameWidth = 48

// nameColumns are the text columns that hold region names.
var nameColumns = map[string]bool{"region": true, "x": true, "y": true, "name": true, "main": true}

// writeResultText prints a result for a person: the findings, then each
// table with at most rows rows (0: all; -1: rowBudget's share of textLines)
// and a line saying how many were left out, region names shortened to maxNameWidth, and times in one human
// unit per column (s, ms or µs, whichever suits the column's largest
// value).
func writeResultText(w io.Writer, res *analysis.Result, rows int) error {
	fmt.Fprintf(w, "%s", res.Analysis)
	if res.Trial != "" {
		fmt.Fprintf(w, " of %s", res.Trial)
	}
	if len(res.Trials) > 0 {
		fmt.Fprintf(w, " of %s", strings.Join(res.Trials, ", "))
	}
	if res.Metric != "" {
		fmt.Fprintf(w, " (%s)", res.Metric)
	}
	fmt.Fprintln(w)
	for _, f := range res.Findings {
		fmt.Fprintf(w, "  * %s\n", f)
	}
	budget := rowBudget(res, rows)
	for i := range res.Tables {
		t := &res.Tables[i]
		title := t.Title
		if title == "" {
			title = t.Name
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		tb, shown := humanTable(t, budget[i])
		if err := tb.writeText(w); err != nil {
			return err
		}
		if left := t.NumRows() - shown; left > 0 {
			fmt.Fprintf(w, "  … %d more rows of %d (--rows 0 prints all; --format json or csv has every row)\n", left, t.NumRows())
		}
	}
	return nil
}

// rowBudget returns how many rows of each table to print: rows for every
// table when rows >= 0, else the rows left of textLines once the heading,
// the findings and each table's blank, title, header and "more rows" lines
// are counted, shared out so that a short table gives what it does not use
// to the others (water-filling), and never fewer than minRows.
func rowBudget(res *analysis.Result, rows int) []int {
	n := len(res.Tables)
	out := make([]int, n)
	if rows >= 0 {
		for i := range out {
			out[i] = rows
		}
		return out
	}
	left := textLines - 1 - len(res.Findings) - 4*n
	open := make([]int, 0, n)
	for i := range res.Tables {
		open = append(open, i)
	}
	for len(open) > 0 {
		share := max(left/len(open), minRows)
		var still []int
		for _, i := range open {
			if rows := res.Tables[i].NumRows(); rows <= share {
				out[i] = rows
				left -= rows
			} else {
				still = append(still, i)
			}
		}
		if len(still) == len(open) { // every remaining table is longer than its share
			for _, i := range still {
				out[i] = share
			}
			break
		}
		open = still
	}
	return out
}

// humanTable renders at most rows rows of t (0: all) for reading and
// returns how many it rendered.
func humanTable(t *analysis.Table, rows int) (table, int) {
	n := t.NumRows()
	if rows > 0 && rows < n {
		n = rows
	}
	if rows == 0 {
		n = t.NumRows()
	}
	var tb table
	scale := make([]float64, len(t.Columns))
	for j := range t.Columns {
		c := &t.Columns[j]
		unit := c.Unit
		scale[j] = 1
		if c.Kind == analysis.Number && c.Unit == "us" {
			scale[j], unit = timeUnit(c.Num)
		}
		h := c.Name
		if unit != "" {
			h += " [" + unit + "]"
		}
		tb.header = append(tb.header, h)
	}
	for i := 0; i < n; i++ {
		row := make([]string, len(t.Columns))
		for j := range t.Columns {
			c := &t.Columns[j]
			switch {
			case c.Kind == analysis.Text && nameColumns[c.Name]:
				row[j] = shortName(c.Format(i), maxNameWidth)
			case c.Kind == analysis.Text:
				row[j] = c.Format(i)
			case math.IsNaN(c.Num[i]):
				row[j] = "-"
			default:
				row[j] = strconv.FormatFloat(c.Num[i]/scale[j], 'g', 4, 64)
			}
		}
		tb.add(row...)
	}
	return tb, n
}

// timeUnit picks the unit of a column of microseconds from its largest
// magnitude: s from 1e6 µs, ms from 1e3 µs, else µs; it returns the
// divisor and the unit's name.
func timeUnit(v []float64) (float64, string) {
	var big float64
	for _, x := range v {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			big = math.Max(big, math.Abs(x))
		}
	}
	switch {
	case big >= 1e6:
		return 1e6, "s"
	case big >= 1e3:
		return 1e3, "ms"
	}
	return 1, "µs"
}

// tauLocation is TAU's source-location suffix " [{file} {l,c}-{l,c}]".
var tauLocation = regexp.MustCompile(`\s*\[\{([^}]*)\}\s*\{(\d+)[^\]]*\]\s*$`)

// shortName shortens a region name to at most width runes for a table:
// TAU's location suffix becomes "file:line", a C/C++ signature longer than
// the width keeps its function name with "(…)" for the parameters and
// drops its return type, and what is still too long is cut with "…". The
// full name stays in the JSON and CSV output.
func shortName(s string, width int) string {
	if len([]rune(s)) <= width {
		return s
	}
	loc := ""
	if m := tauLocation.FindStringSubmatch(s); m != nil {
		file := m[1]
		if k := strings.LastIndexByte(file, '/'); k >= 0 {
			file = file[k+1:]
		}
		loc = " [" + file + ":" + m[2] + "]"
		s = s[:len(s)-len(m[0])]
	}
	if open := strings.IndexByte(s, '('); open > 0 && len([]rune(s))+len([]rune(loc)) > width {
		head := strings.TrimSpace(s[:open])
		if k := strings.LastIndexAny(head, " *&"); k >= 0 {
			head = head[k+1:]
		}
		s = head + "(…)"
	}
	s += loc
	if r := []rune(s); len(r) > width {
		s = string(r[:width-1]) + "…"
	}
	return s
}
