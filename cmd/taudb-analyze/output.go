package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"text/tabwriter"
)

// writeJSON prints v as one indented JSON document: the one place the CLI
// encodes JSON (analysis results encode their tables with NaN as null
// themselves). No NaN or infinite number reaches the output: they become
// null.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	err := enc.Encode(v)
	if _, undefined := err.(*json.UnsupportedValueError); undefined {
		// A NaN or infinite number (TAU stores NaN percentages): null.
		buf.Reset()
		err = enc.Encode(finiteJSON(reflect.ValueOf(v)))
	}
	if err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
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

// num formats a value in the shortest form that reads back exactly
// (strconv's 'g', -1), and an undefined value (NaN, ±Inf: TAU stores NaN
// percentages) as "-".
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
