package caliper

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// jsonDecoder reads cali-query JSON output token by token, so that the data
// rows are held as compact float64 values rather than as decoded objects.
type jsonDecoder struct {
	dec  *json.Decoder
	path string
}

func (j *jsonDecoder) fail(err error) error {
	var se *json.SyntaxError
	off := j.dec.InputOffset()
	if errors.As(err, &se) {
		off = se.Offset
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		off = te.Offset
	}
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return &Error{Path: j.path, Offset: off, Err: err}
}

// decodeJSON reads json-split output (an object with data, columns,
// column_metadata and nodes) or plain JSON (an array of records, or an
// object with a "records" array).
func decodeJSON(r io.Reader, path string) (*sinkResult, error) {
	j := &jsonDecoder{dec: json.NewDecoder(r), path: path}
	j.dec.UseNumber()
	tok, err := j.dec.Token()
	if err != nil {
		return nil, j.fail(err)
	}
	var res *sinkResult
	switch tok {
	case json.Delim('['):
		res, err = j.plainRecords(newSink(), nil)
	case json.Delim('{'):
		res, err = j.object()
	default:
		return nil, &Error{Path: path, Offset: 0, Err: ErrNotCaliper}
	}
	if err != nil {
		return nil, err
	}
	if _, err := j.dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("data after the end of the JSON document")
		}
		return nil, j.fail(err)
	}
	return res, nil
}

// splitDoc collects the sections of a json-split document.
type splitDoc struct {
	rows     []float64 // row-major, NaN for null
	width    int
	columns  []string
	isValue  []bool
	nodes    []splitNode
	seen     map[string]bool
	metadata map[string]string
	nrows    int
}

type splitNode struct {
	Label  any    `json:"label"`
	Column string `json:"column"`
	Parent *int   `json:"parent"`
}

// object reads a top-level object: json-split sections, or plain JSON's
// "records" with "globals" and "attributes".
func (j *jsonDecoder) object() (*sinkResult, error) {
	doc := &splitDoc{seen: map[string]bool{}, metadata: map[string]string{}}
	var plain *sinkResult
	aliases := map[string]string{}
	for j.dec.More() {
		tok, err := j.dec.Token()
		if err != nil {
			return nil, j.fail(err)
		}
		key, _ := tok.(string)
		if doc.seen[key] {
			return nil, j.fail(fmt.Errorf("key %q given twice", key))
		}
		doc.seen[key] = true
		if err := j.section(doc, key, &plain, aliases); err != nil {
			return nil, err
		}
	}
	if _, err := j.dec.Token(); err != nil {
		return nil, j.fail(err)
	}
	if plain != nil {
		plain.s.rename(aliases)
		for k, v := range doc.metadata {
			plain.s.meta[k] = v
		}
		return plain, nil
	}
	return j.buildSplit(doc)
}

func (j *jsonDecoder) section(doc *splitDoc, key string, plain **sinkResult, aliases map[string]string) error {
	var err error
	switch key {
	case "data":
		err = j.splitRows(doc)
	case "columns":
		err = j.dec.Decode(&doc.columns)
	case "column_metadata":
		var md []struct {
			IsValue bool `json:"is_value"`
		}
		err = j.dec.Decode(&md)
		for _, m := range md {
			doc.isValue = append(doc.isValue, m.IsValue)
		}
	case "nodes":
		err = j.dec.Decode(&doc.nodes)
	case "records":
		if _, err = j.dec.Token(); err == nil {
			s := newSink()
			s.alias = func(a string) string { return aliases[a] }
			*plain, err = j.plainRecords(s, nil)
			if err != nil {
				return err
			}
		}
	case "attributes":
		var attrs map[string]map[string]any
		if err = j.dec.Decode(&attrs); err == nil {
			for name, a := range attrs {
				if s, ok := a["attribute.alias"].(string); ok {
					aliases[name] = s
				}
			}
		}
	case "globals":
		var g map[string]any
		if err = j.dec.Decode(&g); err == nil {
			for k, v := range g {
				doc.metadata[k] = metaString(v)
			}
		}
	default:
		var v any
		if err = j.dec.Decode(&v); err == nil {
			doc.metadata[key] = metaString(v)
		}
	}
	if err != nil {
		return j.fail(fmt.Errorf("%q: %w", key, err))
	}
	return nil
}

// metaString renders a JSON value as a metadata string: strings as they
// are, anything else as compact JSON.
func metaString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// splitRows streams the "data" array of json-split output.
func (j *jsonDecoder) splitRows(doc *splitDoc) error {
	if tok, err := j.dec.Token(); err != nil || tok != json.Delim('[') {
		return j.fail(orErr(err, "\"data\" is not an array"))
	}
	for j.dec.More() {
		var row []any
		if err := j.dec.Decode(&row); err != nil {
			return j.fail(fmt.Errorf("data row %d: %w", doc.nrows, err))
		}
		if doc.nrows == 0 {
			doc.width = len(row)
		} else if len(row) != doc.width {
			return j.fail(fmt.Errorf("data row %d has %d values, row 0 has %d", doc.nrows, len(row), doc.width))
		}
		for _, v := range row {
			f, err := rowValue(v)
			if err != nil {
				return j.fail(fmt.Errorf("data row %d: %w", doc.nrows, err))
			}
			doc.rows = append(doc.rows, f)
		}
		doc.nrows++
	}
	_, err := j.dec.Token()
	if err != nil {
		return j.fail(err)
	}
	return nil
}

func orErr(err error, msg string) error {
	if err != nil {
		return err
	}
	return errors.New(msg)
}

func rowValue(v any) (float64, error) {
	switch x := v.(type) {
	case nil:
		return math.NaN(), nil
	case json.Number:
		f, err := x.Float64()
		if err != nil || math.IsInf(f, 0) {
			return 0, fmt.Errorf("value %s is out of range", x)
		}
		return f, nil
	}
	return 0, fmt.Errorf("value %v is not a number or null", v)
}

// plainRecords streams an array of record objects (after its '[').
func (j *jsonDecoder) plainRecords(s *sink, _ []string) (*sinkResult, error) {
	for n := 0; j.dec.More(); n++ {
		var rec map[string]any
		if err := j.dec.Decode(&rec); err != nil {
			return nil, j.fail(fmt.Errorf("record %d: %w", n, err))
		}
		if err := plainRecord(s, rec); err != nil {
			return nil, j.fail(fmt.Errorf("record %d: %w", n, err))
		}
	}
	if _, err := j.dec.Token(); err != nil {
		return nil, j.fail(err)
	}
	return &sinkResult{s: s, format: "json"}, nil
}

// pathKeys are the record keys that may hold the region path of a plain
// JSON record, in order of preference.
var pathKeys = []string{"path", "source.function#callpath.address", "function", "region", "annotation"}

func plainRecord(s *sink, rec map[string]any) error {
	var path []string
	for _, k := range pathKeys {
		if v, ok := rec[k]; ok {
			path = pathOf(v)
			break
		}
	}
	var rank, thread float64
	hasThread, prio := false, len(threadAttrs)
	var vals []value
	keys := make([]string, 0, len(rec))
	for k := range rec {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		num, ok := rec[k].(json.Number)
		if !ok {
			continue
		}
		f, err := num.Float64()
		if err != nil || math.IsInf(f, 0) {
			return fmt.Errorf("%s: value %s is out of range", k, num)
		}
		switch {
		case k == rankAttr:
			rank = f
		case isThreadAttr(k):
			if p := threadPriority(k); p < prio {
				thread, hasThread, prio = f, true, p
			}
		default:
			vals = append(vals, value{attr: k, v: f})
		}
	}
	th, err := s.thread(rank, thread, hasThread)
	if err != nil {
		return err
	}
	return s.add(path, th, vals)
}

// pathOf returns the region path of a plain record's path value: a string
// joined by "/" (as cali-query writes nested regions) or an array.
func pathOf(v any) []string {
	switch x := v.(type) {
	case string:
		if x == "" {
			return nil
		}
		return strings.Split(x, "/")
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, metaString(e))
		}
		return out
	}
	return nil
}
