package extrap

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// write puts text into a file of the test's temporary folder.
func write(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A hand-written file in the shape of Extra-P's one-parameter text tests:
// parameter x at 20..60 with 3 repetitions each, two metrics of a region,
// blank lines and a comment.
const oneParamText = `PARAMETER x

POINTS ( 20 ) ( 30 )
POINTS 40 50 60
# a comment
METRIC time
REGION solve
DATA 40.1 39.8 40.0
DATA 90.2 89.9 90.4
DATA 160.0 161.2 159.5
DATA 250.3 249.1 251.0
DATA 360.9 359.4 360.2

METRIC flops
DATA 1 1 1
DATA 2 2 2
DATA 3 3 3
DATA 4 4 4
DATA 5 5 5
`

func TestReadTextOneParameter(t *testing.T) {
	d, err := Read(write(t, "one.txt", oneParamText))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Params, []string{"x"}) || len(d.Kernels) != 2 {
		t.Fatalf("params %v, %d kernels", d.Params, len(d.Kernels))
	}
	k := d.Kernels[0]
	if k.Region != "solve" || k.Metric != "time" || len(k.Points) != 5 || k.Points[2][0] != 40 || k.Values[4][1] != 359.4 {
		t.Errorf("kernel 0 %+v", k)
	}
	if k := d.Kernels[1]; k.Region != "solve" || k.Metric != "flops" || k.Values[3][0] != 4 {
		t.Errorf("kernel 1 %+v", k)
	}
}

func TestReadTextTwoParameters(t *testing.T) {
	d, err := Read(write(t, "two.txt", "PARAMETER p\nPARAMETER n\nPOINTS ( 2 10 ) ( 4 10 ) ( 2 20 )\nREGION r\nDATA 1\nDATA 2\nDATA 3 3.5\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{2, 10}, {4, 10}, {2, 20}}
	if !reflect.DeepEqual(d.Params, []string{"p", "n"}) || !reflect.DeepEqual(d.Kernels[0].Points, want) || len(d.Kernels[0].Values[2]) != 2 {
		t.Errorf("%+v", d)
	}
}

func TestReadTextErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"PARAMETER x\nPOINTS 1 2\nREGION r\nDATA 1\nDATA 2\nDATA 3\n", ":6: more DATA lines than the 2 points"},
		{"PARAMETER x\nDATA 1\n", ":2: DATA before POINTS"},
		{"PARAMETER x\nPOINTS 1 2\nFOO bar\n", ":3: unknown field \"FOO\""},
		{"PARAMETER x\nPOINTS 1 two\n", ":2: POINTS: coordinate \"two\""},
		{"PARAMETER x y\nPOINTS 1 2\n", ":2: POINTS: 2 parameters need points in parentheses"},
		{"PARAMETER x y\nPOINTS ( 1 2 ) ( 3 )\n", ":2: POINTS: point (3) has 1 coordinates for 2 parameters"},
		{"PARAMETER x\nPOINTS ( 1 ( 2 )\n", ":2: POINTS: unbalanced parentheses"},
		{"PARAMETER x\nPOINTS 1 2\nDATA 1 NaN\n", ":3: DATA value \"NaN\""},
		{"PARAMETER x\nPOINTS 1 2\nREGION r\nDATA 1\n", "region \"r\" metric \"\": 1 DATA lines for 2 points"},
		{"PARAMETER a b c d e\n", ":1: 5 parameters: at most 4"},
		{"PARAMETER x\nPOINTS 1 2\n", "no measurement"},
	} {
		p := write(t, "bad.txt", c.text)
		_, err := Read(p)
		var fe *FormatError
		if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q with the file name", c.text, err, c.want)
		}
	}
	if _, err := Read(t.TempDir()); err == nil {
		t.Error("a folder read as a file")
	}
}

func TestReadJSON(t *testing.T) {
	// The current format, hand-written in the shape of Extra-P's
	// tests/data/json/new inputs: one parameter as a list and as a bare
	// number, two regions, two metrics.
	d, err := Read(write(t, "new.json", `{"parameters": ["x"], "measurements": {
	  "sweep": {"time": [{"point": [4], "values": [3.5, 3.6]}, {"point": 8, "values": [5.5]}],
	            "visits": [{"point": [4], "values": [1]}, {"point": [8], "values": [2]}]},
	  "init": {"time": [{"point": [4], "values": [0.5]}, {"point": [8], "values": [0.5]}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Kernels) != 3 || d.Kernels[0].Region != "init" || d.Kernels[1].Metric != "time" || d.Kernels[1].Points[1][0] != 8 ||
		!reflect.DeepEqual(d.Kernels[1].Values[0], []float64{3.5, 3.6}) {
		t.Errorf("%+v", d)
	}
	// The legacy format with ids: repeated measurements are repetitions;
	// ids need not be in order.
	d, err = Read(write(t, "old.JSON", `{"callpaths": [{"id": 1, "name": "sweep"}],
	  "parameters": [{"id": 2, "name": "y"}, {"id": 1, "name": "x"}],
	  "metrics": [{"id": 1, "name": "time"}],
	  "coordinates": [{"id": 2, "parameter_value_pairs": [{"parameter_id": 2, "parameter_value": 20}, {"parameter_id": 1, "parameter_value": 8}]},
	                  {"id": 1, "parameter_value_pairs": [{"parameter_id": 1, "parameter_value": 4}, {"parameter_id": 2, "parameter_value": 10}]}],
	  "measurements": [{"callpath_id": 1, "coordinate_id": 2, "metric_id": 1, "value": 7},
	                   {"callpath_id": 1, "coordinate_id": 1, "metric_id": 1, "value": 3},
	                   {"callpath_id": 1, "coordinate_id": 1, "metric_id": 1, "value": 3.2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Params, []string{"x", "y"}) || !reflect.DeepEqual(d.Kernels[0].Points, [][]float64{{4, 10}, {8, 20}}) ||
		!reflect.DeepEqual(d.Kernels[0].Values, [][]float64{{3, 3.2}, {7}}) {
		t.Errorf("legacy %+v", d)
	}
	for _, c := range []struct{ text, want string }{
		{`{"parameters": ["x"], "measurements": {"r": {"m": [{"point": "a", "values": [1]}]}}}`, "point"},
		{`{"parameters": ["x"], "measurements": {}}`, "no measurement"},
		{`{"parameters": [], "measurements": {"r": {"m": [{"point": 1, "values": [1]}]}}}`, "no parameter"},
		{`{"parameters": ["x"], "measurements": {"r": {"m": [{"point": 1, "values": []}]}}}`, "no value at point 1"},
		{`{"callpaths": [{"id": 1, "name": "a"}], "parameters": [{"id": 1, "name": "x"}], "metrics": [{"id": 1, "name": "t"}], "coordinates": [], "measurements": [{"callpath_id": 1, "coordinate_id": 9, "metric_id": 1, "value": 1}]}`, "coordinate 9"},
		{`{"parameters": ["x"], `, "JSON"},
	} {
		p := write(t, "bad.json", c.text)
		if _, err := Read(p); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %v, want %q", c.text, err, c.want)
		}
	}
}

func TestWriteTextRoundTrip(t *testing.T) {
	d := &Dataset{Params: []string{"p"}, Kernels: []Kernel{
		{Region: "main loop", Metric: "TIME", Points: [][]float64{{2}, {4}}, Values: [][]float64{{1.25, 1.5}, {0.1}}},
		{Region: "MPI_Allreduce()", Metric: "TIME", Points: [][]float64{{2}, {4}}, Values: [][]float64{{1e-7}, {3}}},
	}}
	var buf bytes.Buffer
	if err := WriteText(&buf, d); err != nil {
		t.Fatal(err)
	}
	back, err := Read(write(t, "out.txt", buf.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if !reflect.DeepEqual(back, d) {
		t.Errorf("round trip:\n%+v\nwant\n%+v\n%s", back, d, buf.String())
	}
	d.Kernels[1].Points = [][]float64{{2}, {8}}
	if err := WriteText(&buf, d); err == nil || !strings.Contains(err.Error(), "points differ") {
		t.Errorf("different points: %v", err)
	}
}
