// Package result holds what every analysis returns and every front end
// stores, prints and draws: a Result of named Tables of typed Columns, with
// its parameters and findings. It is a leaf: it depends on no analysis and
// no database, so the store, the report and the analyses share it without
// depending on each other.
package result

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Result is what every analysis returns: the settings that produced it and
// its numbers as named tables of typed columns, plus one-line findings for a
// person. It depends on no database.
//
// Persisting a Result (the store's side of the contract):
//
//   - analysis_settings: Analysis, Trial (or Trials), Metric and every entry
//     of Params. Params holds every parameter that changes the result,
//     defaults included and written out explicitly, so two runs with
//     different parameters never share a Key.
//   - analysis_result: one row per Table (Name, Title) or per Result.
//   - the numeric table of our own, one row per cell as Cells yields them:
//     (table_name, row_index, column_name, value_num, value_text), the
//     store's analysis_result_value. A number column fills value_num (NULL
//     for an undefined value, which is NaN in memory and null in JSON) and
//     leaves value_text NULL; a text column fills value_text (never NULL,
//     possibly ""). Put rebuilds a Result from such rows: a row with a
//     non-NULL value_text is a Text cell, any other a Number cell; reading
//     the rows back in insertion order (by id) restores the column order.
//
// Columns' units and tables' titles are descriptive; a store that keeps only
// the cells can still rebuild every number.
type Result struct {
	// Analysis names the analysis: "imbalance", "regions", "summary",
	// "correlate", "ratio", "compare", "speedup", "improvement",
	// "scalability", "multiregion" or "multiset" (and, from other packages,
	// "overhead" and "cluster").
	Analysis string `json:"analysis"`
	// Trial names the trial of a single-trial analysis ("" otherwise).
	Trial string `json:"trial,omitempty"`
	// Trials names the trials of a multi-trial analysis, in the order the
	// analysis took them (for Compare: A then B).
	Trials []string `json:"trials,omitempty"`
	// Metric is the metric the analysis used (TIME, PAPI_FP_OPS, ...).
	Metric string `json:"metric"`
	// Params holds every parameter that changes the result, as strings,
	// defaults included (the metric too, under "metric").
	Params map[string]string `json:"params"`
	// Tables holds the numbers.
	Tables []Table `json:"tables"`
	// Findings are one-line statements for a person, most important first.
	Findings []string `json:"findings"`
}

// Key returns a canonical one-line form of the settings (analysis, trials,
// metric and sorted parameters): two results with the same Key were
// computed the same way from the same trials.
func (r *Result) Key() string {
	var b strings.Builder
	b.WriteString(r.Analysis)
	trials := r.Trials
	if r.Trial != "" {
		trials = append([]string{r.Trial}, trials...)
	}
	b.WriteString(" trials=")
	b.WriteString(strconv.Quote(strings.Join(trials, "\x00")))
	b.WriteString(" metric=")
	b.WriteString(strconv.Quote(r.Metric))
	keys := make([]string, 0, len(r.Params))
	for k := range r.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%s", k, strconv.Quote(r.Params[k]))
	}
	return b.String()
}

// Table returns the table named name, or nil.
func (r *Result) Table(name string) *Table {
	for i := range r.Tables {
		if r.Tables[i].Name == name {
			return &r.Tables[i]
		}
	}
	return nil
}

// InternalPrefix starts the name of a table that a result keeps for the
// analysis itself (regress's "_runs": each trial's reduced values, which a
// longer history reuses) and that outputs and reports leave out.
const InternalPrefix = "_"

// Internal reports whether the table is kept for the analysis itself
// (its name starts with InternalPrefix).
func (t *Table) Internal() bool { return strings.HasPrefix(t.Name, InternalPrefix) }

// Shown returns a copy of r without its internal tables (Table.Internal),
// sharing everything else: what outputs and reports show.
func (r *Result) Shown() *Result {
	c := *r
	c.Tables = make([]Table, 0, len(r.Tables))
	for _, t := range r.Tables {
		if !t.Internal() {
			c.Tables = append(c.Tables, t)
		}
	}
	return &c
}

// AddTable appends t to the result and returns a pointer to the stored copy.
func (r *Result) AddTable(t Table) *Table {
	r.Tables = append(r.Tables, t)
	return &r.Tables[len(r.Tables)-1]
}

// Findf appends a finding formatted with fmt.Sprintf.
func (r *Result) Findf(format string, args ...any) {
	r.Findings = append(r.Findings, fmt.Sprintf(format, args...))
}

// Validate checks that every table is well formed (see Table.Validate) and
// that table names are unique.
func (r *Result) Validate() error {
	seen := map[string]bool{}
	for i := range r.Tables {
		t := &r.Tables[i]
		if seen[t.Name] {
			return fmt.Errorf("result %s: table %q given twice", r.Analysis, t.Name)
		}
		seen[t.Name] = true
		if err := t.Validate(); err != nil {
			return fmt.Errorf("result %s: %w", r.Analysis, err)
		}
	}
	return nil
}

// Cell is one value of one table, in the shape of the store's numeric table
// (table_name, row_index, column_name, value_num, value_text).
type Cell struct {
	// Table is the table's name (table_name).
	Table string
	// Row is the 0-based row index (row_index).
	Row int
	// Column is the column's name (column_name).
	Column string
	// Kind says which of Num and Text holds the value.
	Kind Kind
	// Num is the value of a Number cell (NaN when undefined: store NULL).
	Num float64
	// Text is the value of a Text cell.
	Text string
}

// Cells yields every cell of every table, table by table, row by row, and
// column by column within a row.
func (r *Result) Cells() iter.Seq[Cell] {
	return func(yield func(Cell) bool) {
		for ti := range r.Tables {
			t := &r.Tables[ti]
			for row := 0; row < t.NumRows(); row++ {
				for ci := range t.Columns {
					c := &t.Columns[ci]
					cell := Cell{Table: t.Name, Row: row, Column: c.Name, Kind: c.Kind}
					if c.Kind == Number {
						cell.Num = c.Num[row]
					} else {
						cell.Text = c.Text[row]
					}
					if !yield(cell) {
						return
					}
				}
			}
		}
	}
}

// Put stores one cell, creating its table and column (in first-seen order)
// as needed; cells of a column may come in any row order, missing rows of a
// number column are NaN and of a text column "". Units and titles are not
// part of a cell and stay empty. It is the inverse of Cells.
func (r *Result) Put(c Cell) error {
	if c.Row < 0 {
		return fmt.Errorf("cell %s.%s: negative row %d", c.Table, c.Column, c.Row)
	}
	t := r.Table(c.Table)
	if t == nil {
		t = r.AddTable(Table{Name: c.Table})
	}
	col := t.Col(c.Column)
	if col == nil {
		t.Columns = append(t.Columns, Column{Name: c.Column, Kind: c.Kind})
		col = &t.Columns[len(t.Columns)-1]
	}
	if col.Kind != c.Kind {
		return fmt.Errorf("cell %s.%s row %d: %s value in a %s column", c.Table, c.Column, c.Row, c.Kind, col.Kind)
	}
	n := max(c.Row+1, t.NumRows())
	for i := range t.Columns {
		t.Columns[i].grow(n)
	}
	if c.Kind == Number {
		col.Num[c.Row] = c.Num
	} else {
		col.Text[c.Row] = c.Text
	}
	return nil
}

// Kind is the type of a column's values.
type Kind int

const (
	// Number columns hold float64 values in Column.Num; NaN marks an
	// undefined value (JSON null, SQL NULL).
	Number Kind = iota
	// Text columns hold strings in Column.Text.
	Text
)

// String returns "number" or "text".
func (k Kind) String() string {
	if k == Text {
		return "text"
	}
	return "number"
}

// MarshalJSON writes the kind as "number" or "text".
func (k Kind) MarshalJSON() ([]byte, error) { return json.Marshal(k.String()) }

// UnmarshalJSON reads "number" or "text".
func (k *Kind) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	switch s {
	case "number":
		*k = Number
	case "text":
		*k = Text
	default:
		return fmt.Errorf("column kind %q (want number or text)", s)
	}
	return nil
}

// Column is one named, typed column of a table.
type Column struct {
	// Name identifies the column within its table (snake_case, stable: it
	// is the store's column_name).
	Name string `json:"name"`
	// Unit of the values: "us" (microseconds, the unit of TAU's time
	// metrics), "%", "calls", a metric name for counter metrics, or "".
	Unit string `json:"unit,omitempty"`
	// Kind says whether the values are in Num or Text.
	Kind Kind `json:"kind"`
	// Num holds a Number column's values, one per row.
	Num []float64 `json:"-"`
	// Text holds a Text column's values, one per row.
	Text []string `json:"-"`
}

// Len returns the number of values in the column.
func (c *Column) Len() int {
	if c.Kind == Text {
		return len(c.Text)
	}
	return len(c.Num)
}

// Value returns row i as a float64 (Number) or a string (Text).
func (c *Column) Value(i int) any {
	if c.Kind == Text {
		return c.Text[i]
	}
	return c.Num[i]
}

// Format returns row i as text: numbers in the shortest form that reads
// back exactly ("NaN" for an undefined value), text as is.
func (c *Column) Format(i int) string {
	if c.Kind == Text {
		return c.Text[i]
	}
	return strconv.FormatFloat(c.Num[i], 'g', -1, 64)
}

func (c *Column) grow(n int) {
	if c.Kind == Text {
		for len(c.Text) < n {
			c.Text = append(c.Text, "")
		}
		return
	}
	for len(c.Num) < n {
		c.Num = append(c.Num, math.NaN())
	}
}

// Table is a named set of equally long columns; row i is the i-th value of
// every column.
type Table struct {
	// Name identifies the table within its result (the store's table_name).
	Name string
	// Title describes the table for a person, formulas included.
	Title string
	// Columns in display order.
	Columns []Column
}

// NumRows returns the number of rows (the length of the first column).
func (t *Table) NumRows() int {
	if len(t.Columns) == 0 {
		return 0
	}
	return t.Columns[0].Len()
}

// Col returns the column named name, or nil.
func (t *Table) Col(name string) *Column {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	return nil
}

// AddNum appends a Number column and returns it.
func (t *Table) AddNum(name, unit string, values []float64) *Column {
	t.Columns = append(t.Columns, Column{Name: name, Unit: unit, Kind: Number, Num: values})
	return &t.Columns[len(t.Columns)-1]
}

// AddText appends a Text column and returns it.
func (t *Table) AddText(name string, values []string) *Column {
	t.Columns = append(t.Columns, Column{Name: name, Kind: Text, Text: values})
	return &t.Columns[len(t.Columns)-1]
}

// Num returns the value of Number column col in row i; it panics when the
// table has no such Number column.
func (t *Table) Num(col string, i int) float64 {
	c := t.Col(col)
	if c == nil || c.Kind != Number {
		panic(fmt.Sprintf("table %s: no number column %q", t.Name, col))
	}
	return c.Num[i]
}

// Text returns the value of Text column col in row i; it panics when the
// table has no such Text column.
func (t *Table) Text(col string, i int) string {
	c := t.Col(col)
	if c == nil || c.Kind != Text {
		panic(fmt.Sprintf("table %s: no text column %q", t.Name, col))
	}
	return c.Text[i]
}

// Find returns the first row whose Text column col equals value, or -1.
func (t *Table) Find(col, value string) int {
	c := t.Col(col)
	if c == nil || c.Kind != Text {
		return -1
	}
	for i, v := range c.Text {
		if v == value {
			return i
		}
	}
	return -1
}

// Validate checks that the table has a name, that column names are unique
// and non-empty, and that every column has NumRows values of its kind only.
func (t *Table) Validate() error {
	if t.Name == "" {
		return fmt.Errorf("table with no name")
	}
	seen := map[string]bool{}
	n := t.NumRows()
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.Name == "" || seen[c.Name] {
			return fmt.Errorf("table %s: column %d has an empty or repeated name %q", t.Name, i, c.Name)
		}
		seen[c.Name] = true
		if c.Len() != n {
			return fmt.Errorf("table %s: column %s has %d rows, want %d", t.Name, c.Name, c.Len(), n)
		}
		if (c.Kind == Number && c.Text != nil) || (c.Kind == Text && c.Num != nil) {
			return fmt.Errorf("table %s: column %s holds values of the other kind", t.Name, c.Name)
		}
	}
	return nil
}

// tableJSON is the JSON shape of a table: the column headers, then the
// rows as objects keyed by column name, in column order.
type tableJSON struct {
	Name    string            `json:"name"`
	Title   string            `json:"title,omitempty"`
	Columns []Column          `json:"columns"`
	Rows    []json.RawMessage `json:"rows"`
}

// MarshalJSON writes the table as {"name", "title", "columns": [{"name",
// "unit", "kind"}...], "rows": [{column: value, ...}...]}: one object per
// row with the keys in column order; an undefined (NaN or infinite) number
// is null.
func (t Table) MarshalJSON() ([]byte, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	out := tableJSON{Name: t.Name, Title: t.Title, Columns: t.Columns, Rows: make([]json.RawMessage, t.NumRows())}
	if out.Columns == nil {
		out.Columns = []Column{}
	}
	keys := make([][]byte, len(t.Columns))
	for i := range t.Columns {
		var k bytes.Buffer
		writeJSONString(&k, t.Columns[i].Name)
		keys[i] = k.Bytes()
	}
	var b bytes.Buffer
	for row := range out.Rows {
		b.Reset()
		b.WriteByte('{')
		for ci := range t.Columns {
			c := &t.Columns[ci]
			if ci > 0 {
				b.WriteByte(',')
			}
			b.Write(keys[ci])
			b.WriteByte(':')
			if c.Kind == Text {
				writeJSONString(&b, c.Text[row])
			} else if v := c.Num[row]; math.IsNaN(v) || math.IsInf(v, 0) {
				b.WriteString("null")
			} else {
				b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		b.WriteByte('}')
		out.Rows[row] = append(json.RawMessage(nil), b.Bytes()...)
	}
	// An Encoder, unlike json.Marshal, can leave <, > and & alone; whoever
	// encodes the enclosing value decides on escaping.
	var enc bytes.Buffer
	e := json.NewEncoder(&enc)
	e.SetEscapeHTML(false)
	if err := e.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(enc.Bytes(), []byte("\n")), nil
}

// writeJSONString writes s as a JSON string without escaping <, > and &
// (region names such as "A => B" stay readable).
func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // Encode's newline
}

// WriteJSON writes r as one indented JSON document followed by a newline,
// without escaping <, > and & (json.Marshal would write "=>" as
// "=\u003e").
func (r *Result) WriteJSON(w io.Writer) error {
	if err := r.Validate(); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// UnmarshalJSON reads what MarshalJSON writes; null numbers become NaN.
func (t *Table) UnmarshalJSON(data []byte) error {
	var in tableJSON
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	t.Name, t.Title, t.Columns = in.Name, in.Title, in.Columns
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.Kind == Text {
			c.Text = make([]string, len(in.Rows))
		} else {
			c.Num = make([]float64, len(in.Rows))
		}
	}
	for r, raw := range in.Rows {
		var row map[string]json.RawMessage
		if err := json.Unmarshal(raw, &row); err != nil {
			return fmt.Errorf("table %s row %d: %w", t.Name, r, err)
		}
		for i := range t.Columns {
			c := &t.Columns[i]
			v, ok := row[c.Name]
			if c.Kind == Text {
				if ok {
					if err := json.Unmarshal(v, &c.Text[r]); err != nil {
						return fmt.Errorf("table %s row %d column %s: %w", t.Name, r, c.Name, err)
					}
				}
				continue
			}
			c.Num[r] = math.NaN()
			if ok && string(v) != "null" {
				if err := json.Unmarshal(v, &c.Num[r]); err != nil {
					return fmt.Errorf("table %s row %d column %s: %w", t.Name, r, c.Name, err)
				}
			}
		}
	}
	return nil
}
