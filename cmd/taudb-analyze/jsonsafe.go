package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
)

// jsonMarshaler is the interface of types that encode themselves.
var jsonMarshaler = reflect.TypeFor[json.Marshaler]()

// finiteJSON returns a value that encodes to v's JSON with every NaN or
// infinite number replaced by null (JSON has no such numbers; TAU stores
// NaN percentages in some rows of its derived threads). Struct fields keep
// their order and honour the json tags (name, "-", omitempty); a value
// with its own MarshalJSON is encoded by it. writeJSON uses it only when
// the plain encoding fails, so output without such numbers is unchanged.
func finiteJSON(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	if v.Type().Implements(jsonMarshaler) && !((v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil()) {
		if b, err := json.Marshal(v.Interface()); err == nil {
			return json.RawMessage(b)
		}
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return nil
		}
		return v.Interface()
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return finiteJSON(v.Elem())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && (v.IsNil() || v.Type().Elem().Kind() == reflect.Uint8) {
			return v.Interface()
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = finiteJSON(v.Index(i))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			out[fmt.Sprint(it.Key().Interface())] = finiteJSON(it.Value())
		}
		return out
	case reflect.Struct:
		var o orderedObject
		o.addFields(v)
		return o
	}
	return v.Interface()
}

// orderedObject is a JSON object whose keys keep their order.
type orderedObject struct {
	keys []string
	vals []any
}

// addFields adds the exported fields of struct v as encoding/json would
// name them, flattening embedded structs without a tag.
func (o *orderedObject) addFields(v reflect.Value) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fv := v.Field(i)
		if f.Anonymous && name == "" && fv.Kind() == reflect.Struct {
			o.addFields(fv)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if strings.Contains(","+opts+",", ",omitempty,") && fv.IsZero() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		o.keys = append(o.keys, name)
		o.vals = append(o.vals, finiteJSON(fv))
	}
}

// MarshalJSON writes the object with its keys in order.
func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := json.Marshal(o.vals[i])
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
