package extrap

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ReadText reads Extra-P's text input format:
//
//	PARAMETER p [n ...]          (or one PARAMETER line per parameter)
//	POINTS ( 2 ) ( 4 ) ...       (or "POINTS 2 4 8"; "( 2 16 ) ( 4 16 )" for
//	                              two parameters; several lines append)
//	REGION name                  (optional; "" when absent)
//	METRIC name                  (optional; "" when absent)
//	DATA v1 v2 ...               (one line per point, in POINTS order: the
//	                              repetitions measured there)
//
// Blank lines and lines starting with '#' are skipped. REGION and METRIC
// start a new series (whichever comes first for the next DATA lines).
func ReadText(path string) (*Dataset, error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, err
	}
	return parseText(path, data)
}

// textParser holds the state of parseText.
type textParser struct {
	file           string
	d              *Dataset
	points         [][]float64
	region, metric string
	cur            *Kernel
}

func parseText(file string, data []byte) (*Dataset, error) {
	tp := &textParser{file: file, d: &Dataset{}}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 0, 64<<10), MaxFileSize)
	line := 0
	for sc.Scan() {
		line++
		if err := tp.line(line, strings.TrimSpace(sc.Text())); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &FormatError{File: file, Line: line + 1, Msg: err.Error()}
	}
	for i := range tp.d.Kernels {
		if k := &tp.d.Kernels[i]; len(k.Values) != len(tp.points) {
			return nil, &FormatError{File: file, Msg: fmt.Sprintf("region %q metric %q: %d DATA lines for %d points", k.Region, k.Metric, len(k.Values), len(tp.points))}
		}
	}
	return tp.d, tp.d.check(file)
}

// line parses one line.
func (tp *textParser) line(n int, s string) error {
	if s == "" || strings.HasPrefix(s, "#") {
		return nil
	}
	key, rest, _ := strings.Cut(s, " ")
	rest = strings.TrimSpace(rest)
	bad := func(format string, a ...any) error {
		return &FormatError{File: tp.file, Line: n, Msg: fmt.Sprintf(format, a...)}
	}
	switch key {
	case "PARAMETER":
		if len(tp.points) > 0 {
			return bad("PARAMETER after POINTS")
		}
		tp.d.Params = append(tp.d.Params, strings.Fields(rest)...)
		if len(tp.d.Params) > MaxParameters {
			return bad("%d parameters: at most %d", len(tp.d.Params), MaxParameters)
		}
	case "POINTS":
		pts, err := parsePoints(rest, len(tp.d.Params))
		if err != nil {
			return bad("POINTS: %v", err)
		}
		tp.points = append(tp.points, pts...)
	case "REGION", "METRIC":
		if key == "REGION" {
			tp.region = rest
		} else {
			tp.metric = rest
		}
		tp.cur = nil
	case "DATA":
		return tp.data(rest, bad)
	default:
		return bad("unknown field %q (want PARAMETER, POINTS, REGION, METRIC or DATA)", key)
	}
	return nil
}

// data adds one DATA line to the current series.
func (tp *textParser) data(rest string, bad func(string, ...any) error) error {
	if len(tp.points) == 0 {
		return bad("DATA before POINTS")
	}
	if tp.cur == nil {
		tp.d.Kernels = append(tp.d.Kernels, Kernel{Region: tp.region, Metric: tp.metric})
		tp.cur = &tp.d.Kernels[len(tp.d.Kernels)-1]
	}
	k := tp.cur
	if len(k.Values) >= len(tp.points) {
		return bad("more DATA lines than the %d points", len(tp.points))
	}
	var vals []float64
	for _, f := range strings.Fields(rest) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return bad("DATA value %q: want a finite number", f)
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 {
		return bad("DATA without a value")
	}
	k.Points = append(k.Points, tp.points[len(k.Values)])
	k.Values = append(k.Values, vals)
	return nil
}

// parsePoints parses "( 2 16 ) ( 4 16 )" or, for one parameter, "2 4 8".
func parsePoints(s string, nParams int) ([][]float64, error) {
	if nParams == 0 {
		return nil, fmt.Errorf("no PARAMETER before")
	}
	var groups []string
	if strings.Contains(s, "(") {
		for _, g := range strings.Split(s, ")") {
			g = strings.TrimSpace(g)
			if g == "" {
				continue
			}
			if !strings.HasPrefix(g, "(") || strings.Count(g, "(") != 1 {
				return nil, fmt.Errorf("unbalanced parentheses in %q", s)
			}
			groups = append(groups, g[1:])
		}
	} else if nParams == 1 {
		groups = strings.Fields(s)
	} else {
		return nil, fmt.Errorf("%d parameters need points in parentheses", nParams)
	}
	var out [][]float64
	for _, g := range groups {
		var pt []float64
		for _, f := range strings.Fields(g) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("coordinate %q: want a finite number", f)
			}
			pt = append(pt, v)
		}
		if len(pt) != nParams {
			return nil, fmt.Errorf("point (%s) has %d coordinates for %d parameters", strings.TrimSpace(g), len(pt), nParams)
		}
		out = append(out, pt)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no point")
	}
	return out, nil
}

// WriteText writes d in Extra-P's text format. Every kernel must share
// the points of the first (the format has one POINTS list); series whose
// points differ are an error naming them. Values are written with
// strconv's shortest round-trip form.
func WriteText(w io.Writer, d *Dataset) error {
	if err := d.check("dataset"); err != nil {
		return err
	}
	pts := d.Kernels[0].Points
	for _, k := range d.Kernels[1:] {
		if fmt.Sprint(k.Points) != fmt.Sprint(pts) {
			return fmt.Errorf("region %q metric %q: its points differ from those of region %q; Extra-P's text format has one list of points",
				k.Region, k.Metric, d.Kernels[0].Region)
		}
	}
	bw := bufio.NewWriter(w)
	for _, p := range d.Params {
		if strings.ContainsAny(p, " \t\n") || p == "" {
			return fmt.Errorf("parameter name %q: Extra-P's text format needs a name without blanks", p)
		}
	}
	fmt.Fprintf(bw, "PARAMETER %s\n\n", strings.Join(d.Params, " "))
	for _, p := range pts {
		fmt.Fprintf(bw, "POINTS ( %s )\n", joinFloats(p))
	}
	for _, k := range d.Kernels {
		if strings.ContainsAny(k.Region+k.Metric, "\n\r") {
			return fmt.Errorf("region %q metric %q: a line break in a name", k.Region, k.Metric)
		}
		fmt.Fprintf(bw, "\nREGION %s\nMETRIC %s\n", k.Region, k.Metric)
		for _, v := range k.Values {
			fmt.Fprintf(bw, "DATA %s\n", joinFloats(v))
		}
	}
	return bw.Flush()
}

// joinFloats writes v space-separated in the shortest round-trip form.
func joinFloats(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(s, " ")
}
