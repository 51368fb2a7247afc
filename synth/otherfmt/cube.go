package otherfmt

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// CubeSegmentRows is the number of call-tree rows per zlib segment of a
// compressed .cubex data member (Score-P compresses its data in segments
// too; this size is this generator's choice).
const CubeSegmentRows = 64

// WriteCubex writes a Score-P CUBE4 .cubex to path: cnodes call-tree nodes
// (each its own region f<i>) × locs locations (rank l, thread 0), an
// INCLUSIVE DOUBLE metric "time" in seconds (inclusive sums of Excl) and
// an EXCLUSIVE UINT64 metric "visits" (Visits), little endian; with
// compress the data members are ZCUBEX.DATA (zlib segments of
// CubeSegmentRows rows). It returns the file's size in bytes.
func WriteCubex(path string, cnodes, locs int, compress bool) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, fmt.Errorf("write cubex: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	tw := tar.NewWriter(w)
	time, visits := cubeValues(cnodes, locs)
	index := cubeIndex(cnodes)
	members := []struct {
		name string
		data []byte
	}{
		{"0.index", index}, {"0.data", cubeData(visits, locs*8, compress)},
		{"1.index", index}, {"1.data", cubeData(time, locs*8, compress)},
		{"anchor.xml", []byte(cubeAnchor(cnodes, locs))},
	}
	for _, m := range members {
		if err := tw.WriteHeader(&tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.data)), Format: tar.FormatUSTAR}); err != nil {
			f.Close()
			return 0, fmt.Errorf("write cubex: %w", err)
		}
		if _, err := tw.Write(m.data); err != nil {
			f.Close()
			return 0, fmt.Errorf("write cubex: %w", err)
		}
	}
	return finish(f, func() error {
		if err := tw.Close(); err != nil {
			return err
		}
		return w.Flush()
	})
}

// finish flushes and closes f and returns its size.
func finish(f *os.File, flush func() error) (int64, error) {
	if err := flush(); err != nil {
		f.Close()
		return 0, fmt.Errorf("write %s: %w", f.Name(), err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return 0, fmt.Errorf("write %s: %w", f.Name(), err)
	}
	return st.Size(), f.Close()
}

// cubeValues returns the time and visits values, row by row (cnode),
// location by location, as little-endian bytes.
func cubeValues(cnodes, locs int) (time, visits []byte) {
	o := binary.LittleEndian
	time = make([]byte, 0, cnodes*locs*8)
	visits = make([]byte, 0, cnodes*locs*8)
	incl := make([][]float64, locs)
	for l := range incl {
		incl[l] = inclusive(cnodes, l, nil)
	}
	for i := 0; i < cnodes; i++ {
		for l := 0; l < locs; l++ {
			time = o.AppendUint64(time, math.Float64bits(incl[l][i]))
			visits = o.AppendUint64(visits, Visits(i, l))
		}
	}
	return time, visits
}

// cubeIndex returns an index member listing cnodes 0..cnodes-1.
func cubeIndex(cnodes int) []byte {
	o := binary.LittleEndian
	b := []byte("CUBEX.INDEX")
	b = o.AppendUint32(b, 1)
	b = o.AppendUint16(b, 0)
	b = append(b, 1)
	b = o.AppendUint32(b, uint32(cnodes))
	for i := 0; i < cnodes; i++ {
		b = o.AppendUint32(b, uint32(i))
	}
	return b
}

// cubeData returns a data member of the values raw (rowBytes per row):
// CUBEX.DATA and the bytes, or ZCUBEX.DATA with the segment table and one
// zlib segment per CubeSegmentRows rows.
func cubeData(raw []byte, rowBytes int, compress bool) []byte {
	if !compress {
		return append([]byte("CUBEX.DATA"), raw...)
	}
	o := binary.LittleEndian
	var segs [][]byte
	for at := 0; at < len(raw); at += CubeSegmentRows * rowBytes {
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		zw.Write(raw[at:min(len(raw), at+CubeSegmentRows*rowBytes)])
		zw.Close()
		segs = append(segs, z.Bytes())
	}
	b := o.AppendUint64([]byte("ZCUBEX.DATA"), uint64(len(segs)))
	var upos, cpos int
	for _, s := range segs {
		b = o.AppendUint64(b, uint64(upos))
		b = o.AppendUint64(b, uint64(cpos))
		b = o.AppendUint64(b, uint64(len(s)))
		upos += CubeSegmentRows * rowBytes
		cpos += len(s)
	}
	for _, s := range segs {
		b = append(b, s...)
	}
	return b
}

// cubeAnchor returns the anchor.xml of WriteCubex.
func cubeAnchor(cnodes, locs int) string {
	var a strings.Builder
	a.WriteString(`<?xml version="1.0" encoding="UTF-8"?><cube version="4.4"><metrics>
<metric id="0" type="EXCLUSIVE"><uniq_name>visits</uniq_name><dtype>UINT64</dtype><uom>occ</uom></metric>
<metric id="1" type="INCLUSIVE"><uniq_name>time</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom></metric>
</metrics><program>`)
	for r := 0; r < cnodes; r++ {
		fmt.Fprintf(&a, `<region id="%d" mod="gen.c" begin="%d" end="%d"><name>f%d</name><paradigm>user</paradigm></region>`, r, 10*r+1, 10*r+9, r)
	}
	cnodeXML(&a, 0, cnodes)
	a.WriteString(`</program><system><systemtreenode Id="0"><name>machine</name><class>machine</class>`)
	for l := 0; l < locs; l++ {
		fmt.Fprintf(&a, `<locationgroup Id="%d"><name>rank %d</name><rank>%d</rank><type>process</type><location Id="%d"><name>master</name><rank>0</rank><type>thread</type></location></locationgroup>`, l, l, l, l)
	}
	a.WriteString(`</systemtreenode></system></cube>`)
	return a.String()
}

// cnodeXML writes node i and its subtree as nested cnode elements (the
// tree is 10-ary, so the recursion is as deep as log10 of the nodes).
func cnodeXML(a *strings.Builder, i, n int) {
	fmt.Fprintf(a, `<cnode id="%d" calleeId="%d">`, i, i)
	for c := 10*i + 1; c <= 10*i+10 && c < n; c++ {
		cnodeXML(a, c, n)
	}
	a.WriteString("</cnode>")
}

// InflateCubex decompresses every zlib segment of the data members of a
// .cubex that WriteCubex wrote with compress (ZCUBEX.DATA, a little-endian
// segment count, the segment table, the segments) into nothing: the least
// work any reader of the file must do, against which the CUBE reader's
// rate on compressed files is set.
func InflateCubex(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if !strings.HasSuffix(h.Name, ".data") {
			continue
		}
		if err := inflateMember(tr); err != nil {
			return fmt.Errorf("%s: %w", h.Name, err)
		}
	}
}

// inflateMember inflates the segments of one ZCUBEX.DATA member.
func inflateMember(r io.Reader) error {
	head := make([]byte, len("ZCUBEX.DATA")+8)
	if _, err := io.ReadFull(r, head); err != nil {
		return err
	}
	if string(head[:len("ZCUBEX.DATA")]) != "ZCUBEX.DATA" {
		return fmt.Errorf("not a ZCUBEX.DATA member")
	}
	count := binary.LittleEndian.Uint64(head[len("ZCUBEX.DATA"):])
	if count > 1<<20 {
		return fmt.Errorf("%d segments: not a member WriteCubex wrote", count)
	}
	table := make([]byte, 24*count)
	if _, err := io.ReadFull(r, table); err != nil {
		return err
	}
	var zr io.ReadCloser
	for s := uint64(0); s < count; s++ {
		seg := io.LimitReader(r, int64(binary.LittleEndian.Uint64(table[24*s+16:])))
		var err error
		if zr == nil {
			zr, err = zlib.NewReader(seg)
		} else {
			err = zr.(zlib.Resetter).Reset(seg, nil)
		}
		if err != nil {
			return err
		}
		if _, err := io.Copy(io.Discard, zr); err != nil {
			return err
		}
	}
	return nil
}
