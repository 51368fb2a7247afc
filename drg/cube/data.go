package cube

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// dtype says how one value of a metric is stored: its size in bytes and
// its kind (one of the names of dtypes).
type dtype struct {
	size int
	kind string
}

// dtypes lists the value types read; others (MINDOUBLE, MAXDOUBLE,
// TAU_ATOMIC, histograms, ...) do not add up along the call tree or are not
// single numbers, and their metrics are left out with a warning.
var dtypes = map[string]dtype{
	"DOUBLE": {8, "DOUBLE"}, "UINT64": {8, "UINT64"}, "INT64": {8, "INT64"},
	"UINT32": {4, "UINT32"}, "INT32": {4, "INT32"},
	"UINT16": {2, "UINT16"}, "INT16": {2, "INT16"},
	"UINT8": {1, "UINT8"}, "INT8": {1, "INT8"},
}

// decodeRow converts the values of one row, b holding len(dst) values of
// type dt in byte order o, into dst. It returns the position of the first
// value that is not finite (a DOUBLE NaN or infinity), or -1. The 8-byte
// types, which Score-P writes, are decoded in loops of their own per byte
// order, without a call per value.
func decodeRow(dst []float64, b []byte, dt dtype, o binary.ByteOrder) int {
	big := o == binary.ByteOrder(binary.BigEndian)
	switch {
	case dt.kind == "DOUBLE" && !big:
		for l := range dst {
			dst[l] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*l:]))
		}
	case dt.kind == "DOUBLE":
		for l := range dst {
			dst[l] = math.Float64frombits(binary.BigEndian.Uint64(b[8*l:]))
		}
	case dt.kind == "UINT64" && !big:
		for l := range dst {
			dst[l] = float64(binary.LittleEndian.Uint64(b[8*l:]))
		}
	default:
		for l := range dst {
			dst[l] = decodeOne(b[l*dt.size:], dt.kind, o)
		}
	}
	if dt.kind != "DOUBLE" {
		return -1
	}
	for l, v := range dst {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return l
		}
	}
	return -1
}

// decodeOne converts one value of kind from b in byte order o.
func decodeOne(b []byte, kind string, o binary.ByteOrder) float64 {
	switch kind {
	case "DOUBLE":
		return math.Float64frombits(o.Uint64(b))
	case "UINT64":
		return float64(o.Uint64(b))
	case "INT64":
		return float64(int64(o.Uint64(b)))
	case "UINT32":
		return float64(o.Uint32(b))
	case "INT32":
		return float64(int32(o.Uint32(b)))
	case "UINT16":
		return float64(o.Uint16(b))
	case "INT16":
		return float64(int16(o.Uint16(b)))
	case "UINT8":
		return float64(b[0])
	}
	return float64(int8(b[0]))
}

const (
	indexMagic = "CUBEX.INDEX"
	dataMagic  = "CUBEX.DATA"
	zdataMagic = "ZCUBEX.DATA"
)

// index is a metric's .index file: the byte order of its data and the
// cnode id of each data row.
type index struct {
	order binary.ByteOrder
	rows  []int
}

// readIndex reads N.index: magic, the number 1 as int32 (its bytes give the
// byte order), a uint16 version, a format byte, the number of rows and one
// int32 cnode id per row.
func readIndex(r io.Reader, size int64, name, mem string) (*index, error) {
	br := bufio.NewReader(r)
	var h [len(indexMagic) + 4 + 2 + 1 + 4]byte
	if n, err := io.ReadFull(br, h[:]); err != nil {
		return nil, &Error{Path: name, Member: mem, Offset: int64(n), Err: fmt.Errorf("header %w", ErrTruncated)}
	}
	if string(h[:len(indexMagic)]) != indexMagic {
		return nil, errorf(name, mem, 0, "no %s magic", indexMagic)
	}
	ix := &index{}
	switch one := h[11:15]; {
	case bytes.Equal(one, []byte{1, 0, 0, 0}):
		ix.order = binary.LittleEndian
	case bytes.Equal(one, []byte{0, 0, 0, 1}):
		ix.order = binary.BigEndian
	default:
		return nil, errorf(name, mem, 11, "endianness mark %x is not the number 1", one)
	}
	n := int64(ix.order.Uint32(h[18:]))
	if want := int64(len(h)) + 4*n; want != size {
		return nil, &Error{Path: name, Member: mem, Offset: min(want, size), Err: fmt.Errorf("%d rows need %d bytes, the member has %d", n, want, size)}
	}
	ix.rows = make([]int, n)
	var b [4]byte
	for i := range ix.rows {
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return nil, &Error{Path: name, Member: mem, Offset: int64(len(h)) + 4*int64(i), Err: ErrTruncated}
		}
		ix.rows[i] = int(ix.order.Uint32(b[:]))
	}
	return ix, nil
}

// dataReader returns a reader of a data member's values: the bytes after
// CUBEX.DATA, or the inflated segments of a ZCUBEX.DATA member. want is
// the number of value bytes the index and anchor promise; a ZCUBEX member
// never inflates more than that.
func dataReader(sr *io.SectionReader, ix *index, want int64, name, mem string) (io.Reader, error) {
	head := make([]byte, len(zdataMagic))
	n, _ := io.ReadFull(sr, head)
	switch {
	case n >= len(dataMagic) && string(head[:len(dataMagic)]) == dataMagic:
		if got := sr.Size() - int64(len(dataMagic)); got != want {
			return nil, &Error{Path: name, Member: mem, Offset: min(sr.Size(), int64(len(dataMagic))+want),
				Err: fmt.Errorf("%d bytes of values, the index and anchor.xml promise %d", got, want)}
		}
		return bufio.NewReaderSize(io.NewSectionReader(sr, int64(len(dataMagic)), want), 1<<16), nil
	case n == len(zdataMagic) && string(head) == zdataMagic:
		return zsegments(sr, ix.order, want, name, mem)
	}
	return nil, errorf(name, mem, 0, "no %s or %s magic", dataMagic, zdataMagic)
}

// zsegments reads a ZCUBEX.DATA member: an int64 count, count triples of
// int64 (uncompressed position, compressed position, compressed size),
// then the zlib segments in order.
func zsegments(sr *io.SectionReader, order binary.ByteOrder, want int64, name, mem string) (io.Reader, error) {
	off := int64(len(zdataMagic))
	var b [8]byte
	if _, err := sr.ReadAt(b[:], off); err != nil {
		return nil, &Error{Path: name, Member: mem, Offset: off, Err: ErrTruncated}
	}
	count := int64(order.Uint64(b[:]))
	off += 8
	if count < 0 || count > (sr.Size()-off)/24 {
		return nil, errorf(name, mem, off-8, "%d segments do not fit in a member of %d bytes", count, sr.Size())
	}
	pos := off + 24*count
	var parts []io.Reader
	for i := int64(0); i < count; i++ {
		var t [24]byte
		if _, err := sr.ReadAt(t[:], off+24*i); err != nil {
			return nil, &Error{Path: name, Member: mem, Offset: off + 24*i, Err: ErrTruncated}
		}
		size := int64(order.Uint64(t[16:]))
		if size < 0 || size > sr.Size()-pos {
			return nil, errorf(name, mem, off+24*i+16, "segment %d of %d bytes runs past the member's end", i, size)
		}
		if size > 0 {
			parts = append(parts, &lazyZlib{src: io.NewSectionReader(sr, pos, size), name: name, mem: mem, at: pos})
		}
		pos += size
	}
	return io.LimitReader(io.MultiReader(parts...), want+1), nil
}

// lazyZlib inflates one segment, opening the zlib stream on first read.
type lazyZlib struct {
	src  io.Reader
	zr   io.ReadCloser
	name string
	mem  string
	at   int64
}

func (z *lazyZlib) Read(p []byte) (int, error) {
	if z.zr == nil {
		zr, err := zlib.NewReader(z.src)
		if err != nil {
			return 0, errorf(z.name, z.mem, z.at, "zlib segment: %v", err)
		}
		z.zr = zr
	}
	n, err := z.zr.Read(p)
	if err != nil && err != io.EOF {
		return n, errorf(z.name, z.mem, z.at, "zlib segment: %v", err)
	}
	return n, err
}

// readValues reads rows × locations values of type dt into dst (indexed
// node*locations+location), node[row] being the tree node of each row.
func readValues(r io.Reader, dt dtype, order binary.ByteOrder, nodes []int, nloc int, dst []float64, name, mem string) error {
	buf := make([]byte, dt.size*nloc)
	for row, node := range nodes {
		if _, err := io.ReadFull(r, buf); err != nil {
			var e *Error
			if errors.As(err, &e) {
				return e
			}
			return &Error{Path: name, Member: mem, Offset: -1, Err: fmt.Errorf("values of row %d: %w", row, ErrTruncated)}
		}
		out := dst[node*nloc : (node+1)*nloc]
		if l := decodeRow(out, buf, dt, order); l >= 0 {
			return errorf(name, mem, -1, "row %d (cnode row), location %d: value %v is not finite", row, l, out[l])
		}
	}
	var one [1]byte
	n, err := io.ReadFull(r, one[:])
	if n > 0 {
		return errorf(name, mem, -1, "more values than the index's %d rows × %d locations", len(nodes), nloc)
	}
	var e *Error
	if errors.As(err, &e) {
		return e // a zlib segment whose checksum is wrong
	}
	return nil
}

// openMember returns a section reader over an archive member.
func openMember(f *os.File, m member) *io.SectionReader {
	return io.NewSectionReader(f, m.off, m.size)
}
