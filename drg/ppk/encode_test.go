package ppk

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"unicode/utf16"
)

// This file holds a small packed-profile writer for the tests, written from
// ppk.md (the layout of DataSourceExport.writePacked), independent of the
// decoder.

// encodeMUTF8 encodes s as Java's writeUTF does, without the length:
// UTF-16 code units, NUL as C0 80, surrogates as 3-byte units each.
func encodeMUTF8(s string) []byte {
	var out []byte
	for _, u := range utf16.Encode([]rune(s)) {
		switch {
		case u >= 0x01 && u <= 0x7F:
			out = append(out, byte(u))
		case u <= 0x7FF: // also U+0000
			out = append(out, 0xC0|byte(u>>6), 0x80|byte(u&0x3F))
		default:
			out = append(out, 0xE0|byte(u>>12), 0x80|byte(u>>6&0x3F), 0x80|byte(u&0x3F))
		}
	}
	return out
}

// enc is a DataOutputStream.
type enc struct{ bytes.Buffer }

func (e *enc) i32(v int32) { _ = binary.Write(&e.Buffer, binary.BigEndian, v) }

func (e *enc) f64(v float64) { _ = binary.Write(&e.Buffer, binary.BigEndian, math.Float64bits(v)) }

func (e *enc) utf(s string) {
	b := encodeMUTF8(s)
	if len(b) > 0xFFFF {
		panic("test string too long for writeUTF")
	}
	_ = binary.Write(&e.Buffer, binary.BigEndian, uint16(len(b)))
	e.Write(b)
}

type tThreadMeta struct {
	id [3]int32
	kv []string
}

type tFunction struct {
	name   string
	groups []int32
}

type tFP struct {
	fn           int32
	calls, subrs float64
	values       []float64 // exclusive, inclusive for each metric
}

type tUEP struct {
	ue                     int32
	n                      int32
	min, max, mean, sumsqr float64
}

type tThread struct {
	id   [3]int32
	fps  []tFP
	ueps []tUEP
}

// tFile describes a packed profile to write.
type tFile struct {
	version, compatible int32
	reserved            []byte // the "future" bytes S at the start of the header block
	trialMeta           []string
	threadMeta          []tThreadMeta
	headerTail          []byte // bytes after the thread metadata, inside the header block
	v1Header            []byte // the whole header block of a version-1 file
	metrics, groups     []string
	functions           []tFunction
	userEvents          []string
	threads             []tThread
}

// encode returns the raw (uncompressed) payload.
func (f *tFile) encode() []byte {
	var hb enc
	if f.version >= 2 {
		hb.i32(int32(len(f.reserved)))
		hb.Write(f.reserved)
		hb.i32(int32(len(f.trialMeta) / 2))
		for _, s := range f.trialMeta {
			hb.utf(s)
		}
		hb.i32(int32(len(f.threadMeta)))
		for _, t := range f.threadMeta {
			for _, r := range t.id {
				hb.i32(r)
			}
			hb.i32(int32(len(t.kv) / 2))
			for _, s := range t.kv {
				hb.utf(s)
			}
		}
		hb.Write(f.headerTail)
	} else {
		hb.Write(f.v1Header)
	}
	var e enc
	for _, c := range "PPK" {
		_ = binary.Write(&e.Buffer, binary.BigEndian, uint16(c))
	}
	e.i32(f.version)
	e.i32(f.compatible)
	e.i32(int32(hb.Len()))
	e.Write(hb.Bytes())
	e.i32(int32(len(f.metrics)))
	for _, m := range f.metrics {
		e.utf(m)
	}
	e.i32(int32(len(f.groups)))
	for _, g := range f.groups {
		e.utf(g)
	}
	e.i32(int32(len(f.functions)))
	for _, fn := range f.functions {
		e.utf(fn.name)
		e.i32(int32(len(fn.groups)))
		for _, g := range fn.groups {
			e.i32(g)
		}
	}
	e.i32(int32(len(f.userEvents)))
	for _, u := range f.userEvents {
		e.utf(u)
	}
	e.i32(int32(len(f.threads)))
	for _, t := range f.threads {
		for _, r := range t.id {
			e.i32(r)
		}
		e.i32(int32(len(t.fps)))
		for _, fp := range t.fps {
			e.i32(fp.fn)
			e.f64(fp.calls)
			e.f64(fp.subrs)
			for _, v := range fp.values {
				e.f64(v)
			}
		}
		e.i32(int32(len(t.ueps)))
		for _, u := range t.ueps {
			e.i32(u.ue)
			e.i32(u.n)
			e.f64(u.min)
			e.f64(u.max)
			e.f64(u.mean)
			e.f64(u.sumsqr)
		}
	}
	return e.Bytes()
}

// gzipBytes compresses b as one gzip member.
func gzipBytes(b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return out.Bytes()
}

// Names of the hand-made profile: a callpath whose leaf has a character
// above U+FFFF (a surrogate pair in Java) and an embedded NUL (C0 80).
const (
	handMain     = "int main(int, char **) C [{t.c} {3,1}-{9,1}]"
	handLeaf     = "compute \U0001F600\x00tail"
	handCallpath = handMain + " => " + handLeaf
	handSend     = "MPI_Send()"
	handEvent    = "Message size \u00e9"
	handContext  = "Bytes : " + handMain
)

// handMade returns a version-2 profile with two metrics, three threads (one
// of them with metadata only) whose function sets differ, and user events.
func handMade() *tFile {
	return &tFile{
		version: 2, compatible: 1,
		reserved:   []byte{9, 9, 9},
		trialMeta:  []string{"Application", "hand", "Note", "\u00e9\U0001F600\x00"},
		headerTail: []byte{1, 2, 3, 4, 5}, // a future field: skipped by going to 18+H
		threadMeta: []tThreadMeta{
			{id: [3]int32{0, 0, 0}, kv: []string{"pid", "100", "Hostname", "a"}},
			{id: [3]int32{1, 0, 0}, kv: []string{"pid", "101"}},
			{id: [3]int32{2, 0, 0}, kv: []string{"pid", "102"}},
		},
		metrics: []string{"TIME", "PAPI_FP_INS"},
		groups:  []string{"MPI", "TAU_CALLPATH", "TAU_DEFAULT", "TAU_USER"},
		functions: []tFunction{
			{name: handSend, groups: []int32{0}},
			{name: handLeaf, groups: []int32{3}},
			{name: handMain, groups: []int32{2}},
			{name: handCallpath, groups: []int32{1, 3}},
		},
		userEvents: []string{handContext, handEvent},
		threads: []tThread{
			// Written out of order on purpose: the builder sorts threads.
			{id: [3]int32{1, 0, 0},
				fps: []tFP{
					{fn: 2, calls: 1, subrs: 2, values: []float64{10, 100, 1000, 2000}},
					{fn: 0, calls: 2, subrs: 0, values: []float64{90, 90, 0, 0}},
				},
				ueps: []tUEP{{ue: 1, n: 2, min: 8, max: 16, mean: 12, sumsqr: 320}},
			},
			{id: [3]int32{0, 0, 0},
				fps: []tFP{
					{fn: 2, calls: 1, subrs: 1, values: []float64{5, 50, 500, 5000}},
					{fn: 1, calls: 3, subrs: 0, values: []float64{45, 45, 4500, 4500}},
					{fn: 3, calls: 3, subrs: 0, values: []float64{45, 45, 4500, 4500}},
				},
				ueps: []tUEP{
					{ue: 0, n: 1, min: 4, max: 4, mean: 4, sumsqr: 16},
					{ue: 1, n: 3, min: 1, max: 3, mean: 2, sumsqr: 14},
				},
			},
		},
	}
}
