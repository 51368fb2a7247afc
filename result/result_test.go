package result

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func sampleResult() *Result {
	r := &Result{Analysis: "demo", Trial: "t", Metric: "TIME", Params: map[string]string{"metric": "TIME", "top": "10"}, Findings: []string{"x"}}
	tb := Table{Name: "rows", Title: "demo"}
	tb.AddText("region", []string{"main => f", "g<&>"})
	tb.AddNum("value", "us", []float64{1.5, math.NaN()})
	tb.AddNum("calls", "calls", []float64{3, 0})
	r.AddTable(tb)
	return r
}

func TestResultJSON(t *testing.T) {
	r := sampleResult()
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	// Rows are objects in column order; NaN is null; names are not
	// HTML-escaped.
	for _, want := range []string{
		`{"region":"main => f","value":1.5,"calls":3}`,
		`"g<&>"`,
		`"value":null`,
		`"kind": "number"`,
		`"unit": "us"`,
	} {
		if !strings.Contains(strings.ReplaceAll(out, "\n", ""), want) && !strings.Contains(compact(t, out), want) {
			t.Errorf("JSON lacks %s:\n%s", want, out)
		}
	}
	var back Result
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	tb := back.Table("rows")
	if tb == nil || tb.NumRows() != 2 || tb.Text("region", 0) != "main => f" || tb.Num("value", 0) != 1.5 ||
		!math.IsNaN(tb.Num("value", 1)) || tb.Col("value").Unit != "us" || tb.Col("region").Kind != Text {
		t.Errorf("round trip: %+v", back)
	}
	if back.Key() != r.Key() {
		t.Errorf("key %q != %q", back.Key(), r.Key())
	}
	// json.Marshal works too (with HTML escaping).
	if _, err := json.Marshal(r); err != nil {
		t.Fatal(err)
	}
}

func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestResultCells(t *testing.T) {
	r := sampleResult()
	var cells []Cell
	for c := range r.Cells() {
		cells = append(cells, c)
	}
	if len(cells) != 6 || cells[0].Column != "region" || cells[1].Column != "value" || cells[3].Row != 1 {
		t.Fatalf("cells %+v", cells)
	}
	// Rebuild in reverse order.
	var back Result
	for i := len(cells) - 1; i >= 0; i-- {
		if err := back.Put(cells[i]); err != nil {
			t.Fatal(err)
		}
	}
	tb := back.Table("rows")
	if err := back.Validate(); err != nil || tb.NumRows() != 2 || tb.Num("calls", 0) != 3 || tb.Text("region", 1) != "g<&>" || !math.IsNaN(tb.Num("value", 1)) {
		t.Errorf("rebuilt %+v (%v)", tb, err)
	}
	if err := back.Put(Cell{Table: "rows", Column: "calls", Kind: Text, Text: "x"}); err == nil {
		t.Error("text into a number column accepted")
	}
	n := 0
	for range r.Cells() {
		n++
		break
	}
	if n != 1 {
		t.Error("early stop")
	}
}
