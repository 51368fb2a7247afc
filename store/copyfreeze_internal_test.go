package store

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"strings"
	"testing"
)

// rowsOf returns a next function over rows.
func rowsOf(rows [][]any) func() ([]any, bool) {
	i := 0
	return func() ([]any, bool) {
		if i == len(rows) {
			return nil, false
		}
		i++
		return rows[i-1], true
	}
}

// TestBinaryCopyEncoding checks the bytes of PostgreSQL's binary COPY
// format written by hand from its documentation: signature, flags and
// header extension, then per tuple the field count and each field's length
// and big-endian value (−1 for NULL), then the trailer −1.
func TestBinaryCopyEncoding(t *testing.T) {
	enc := &binaryCopy{next: rowsOf([][]any{{int64(7), nil, 2.5}, {int32(-1), int(3), math.Inf(-1)}}), width: 3}
	got, err := io.ReadAll(iotestOneByte{enc})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	want.WriteString("PGCOPY\n\xff\r\n\x00")
	w := func(v any) { binary.Write(&want, binary.BigEndian, v) } //nolint:errcheck // bytes.Buffer
	w(uint32(0))
	w(uint32(0))
	w(uint16(3))
	w(int32(4))
	w(int32(7))
	w(int32(-1))
	w(int32(8))
	w(math.Float64bits(2.5))
	w(uint16(3))
	w(int32(4))
	w(int32(-1))
	w(int32(4))
	w(int32(3))
	w(int32(8))
	w(math.Float64bits(math.Inf(-1)))
	w(int16(-1))
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("encoded\n%x\nwant\n%x", got, want.Bytes())
	}
}

// iotestOneByte reads at most one byte per Read, to exercise the
// encoder's buffering across short reads.
type iotestOneByte struct{ r io.Reader }

func (o iotestOneByte) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

// TestBinaryCopyRefuses checks that a value that does not fit its column
// (an integer beyond INT, a string, a row of the wrong width) stops the
// copy with an error naming the column, instead of being truncated.
func TestBinaryCopyRefuses(t *testing.T) {
	for _, c := range []struct {
		row  []any
		want string
	}{
		{[]any{int64(math.MaxInt32) + 1, 1.0}, "column 1: 2147483648 does not fit"},
		{[]any{int64(1), "x"}, "column 2: a value of type string"},
		{[]any{int64(1)}, "a row of 1 values for 2 columns"},
	} {
		enc := &binaryCopy{next: rowsOf([][]any{c.row}), width: 2}
		_, err := io.ReadAll(enc)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.row, err, c.want)
		}
	}
}
