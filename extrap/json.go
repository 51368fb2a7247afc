package extrap

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
)

// ReadJSON reads Extra-P's JSON experiment format, either the current
//
//	{"parameters": ["p", "n"],
//	 "measurements": {"REGION": {"METRIC": [{"point": [2, 16], "values": [1.5, 1.6]}, ...]}}}
//
// ("point" may be a bare number for one parameter), or the legacy one
// with numeric ids: "parameters" [{"id", "name"}], "callpaths" and
// "metrics" [{"id", "name"}], "coordinates" [{"id",
// "parameter_value_pairs": [{"parameter_id", "parameter_value"}]}] and
// "measurements" [{"coordinate_id", "callpath_id", "metric_id", "value"}]
// (ids counted from 1; repeated keys are repetitions).
func ReadJSON(path string) (*Dataset, error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, err
	}
	return parseJSON(path, data)
}

func parseJSON(file string, data []byte) (*Dataset, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, &FormatError{File: file, Msg: "JSON: " + err.Error()}
	}
	var d *Dataset
	var err error
	if _, legacy := probe["callpaths"]; legacy {
		d, err = parseLegacyJSON(file, data)
	} else {
		d, err = parseNewJSON(file, data)
	}
	if err != nil {
		return nil, err
	}
	return d, d.check(file)
}

// jsonPoint is a point given as a number or a list of numbers.
type jsonPoint []float64

// UnmarshalJSON accepts 4 or [4, 16].
func (p *jsonPoint) UnmarshalJSON(b []byte) error {
	var x float64
	if err := json.Unmarshal(b, &x); err == nil {
		*p = jsonPoint{x}
		return nil
	}
	var xs []float64
	if err := json.Unmarshal(b, &xs); err != nil {
		return fmt.Errorf("point %s: want a number or a list of numbers", b)
	}
	*p = xs
	return nil
}

func parseNewJSON(file string, data []byte) (*Dataset, error) {
	var doc struct {
		Parameters   []string `json:"parameters"`
		Measurements map[string]map[string][]struct {
			Point  jsonPoint `json:"point"`
			Values []float64 `json:"values"`
		} `json:"measurements"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, &FormatError{File: file, Msg: "JSON: " + err.Error()}
	}
	d := &Dataset{Params: doc.Parameters}
	for _, region := range sortedKeys(doc.Measurements) {
		metrics := doc.Measurements[region]
		for _, metric := range sortedKeys(metrics) {
			k := Kernel{Region: region, Metric: metric}
			for _, m := range metrics[metric] {
				if err := finite(m.Point, m.Values); err != nil {
					return nil, &FormatError{File: file, Msg: fmt.Sprintf("region %q metric %q: %v", region, metric, err)}
				}
				k.Points, k.Values = append(k.Points, []float64(m.Point)), append(k.Values, m.Values)
			}
			d.Kernels = append(d.Kernels, k)
		}
	}
	return d, nil
}

// legacyDoc is the legacy JSON format.
type legacyDoc struct {
	Parameters, Callpaths, Metrics []struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	Coordinates []struct {
		ID    int `json:"id"`
		Pairs []struct {
			Param int     `json:"parameter_id"`
			Value float64 `json:"parameter_value"`
		} `json:"parameter_value_pairs"`
	}
	Measurements []struct {
		Coord  int     `json:"coordinate_id"`
		Call   int     `json:"callpath_id"`
		Metric int     `json:"metric_id"`
		Value  float64 `json:"value"`
	}
}

func parseLegacyJSON(file string, data []byte) (*Dataset, error) {
	var doc legacyDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, &FormatError{File: file, Msg: "JSON: " + err.Error()}
	}
	names := func(list []struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}) map[int]string {
		m := map[int]string{}
		for _, e := range list {
			m[e.ID] = e.Name
		}
		return m
	}
	params, calls, metrics := names(doc.Parameters), names(doc.Callpaths), names(doc.Metrics)
	d := &Dataset{}
	pids := sortedIDs(params)
	for _, id := range pids {
		d.Params = append(d.Params, params[id])
	}
	coords := map[int][]float64{}
	for _, c := range doc.Coordinates {
		sort.Slice(c.Pairs, func(i, j int) bool { return c.Pairs[i].Param < c.Pairs[j].Param })
		for _, pv := range c.Pairs {
			coords[c.ID] = append(coords[c.ID], pv.Value)
		}
	}
	return d, legacyKernels(file, d, &doc, calls, metrics, coords)
}

// legacyKernels groups the legacy measurements by callpath and metric,
// points in coordinate id order.
func legacyKernels(file string, d *Dataset, doc *legacyDoc, calls, metrics map[int]string, coords map[int][]float64) error {
	type key struct{ call, metric int }
	vals := map[key]map[int][]float64{}
	for i, m := range doc.Measurements {
		_, okC := calls[m.Call]
		_, okM := metrics[m.Metric]
		if _, okP := coords[m.Coord]; !okC || !okM || !okP {
			return &FormatError{File: file, Msg: fmt.Sprintf("measurement %d: unknown callpath %d, metric %d or coordinate %d", i+1, m.Call, m.Metric, m.Coord)}
		}
		if math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
			return &FormatError{File: file, Msg: fmt.Sprintf("measurement %d: value not finite", i+1)}
		}
		k := key{m.Call, m.Metric}
		if vals[k] == nil {
			vals[k] = map[int][]float64{}
		}
		vals[k][m.Coord] = append(vals[k][m.Coord], m.Value)
	}
	for _, c := range sortedIDs(calls) {
		for _, mt := range sortedIDs(metrics) {
			v := vals[key{c, mt}]
			if v == nil {
				continue
			}
			k := Kernel{Region: calls[c], Metric: metrics[mt]}
			for _, id := range sortedIDs(v) {
				k.Points, k.Values = append(k.Points, coords[id]), append(k.Values, v[id])
			}
			d.Kernels = append(d.Kernels, k)
		}
	}
	return nil
}

// finite checks that the point and values are finite numbers.
func finite(pt, vals []float64) error {
	for _, v := range append(append([]float64(nil), pt...), vals...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("a value that is not a finite number")
		}
	}
	return nil
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sortedIDs returns the keys of m in order.
func sortedIDs[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}
