package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
)

// writeJSON prints v as one indented JSON document.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// table is a simple text table with a header, printed aligned or as CSV.
type table struct {
	header []string
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range append([][]string{t.header}, t.rows...) {
		for i, c := range r {
			if i > 0 {
				fmt.Fprint(tw, "\t")
			}
			fmt.Fprint(tw, escapeText(c, ""))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

func (t *table) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	for _, r := range append([][]string{t.header}, t.rows...) {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = csvCell(c)
		}
		if err := cw.Write(cells); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// num formats a value with up to 6 significant decimals, without exponent
// for ordinary magnitudes.
func num(v float64) string {
	return strconv.FormatFloat(v, 'g', 10, 64)
}
