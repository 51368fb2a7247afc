package ppk

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

const benchFile = "HeatMapSamples/matmult.ppk"

// BenchmarkDecode decodes matmult.ppk from memory; MB/s is of the gzip
// file.
func BenchmarkDecode(b *testing.B) {
	data := readFile(b, benchFile)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(bytes.NewReader(data), benchFile); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadBytes only reads matmult.ppk and decompresses it to
// io.Discard: the floor that BenchmarkDecode compares with.
func BenchmarkReadBytes(b *testing.B) {
	path := filepath.Join(dataDir, benchFile)
	data := readFile(b, benchFile)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		raw, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, zr); err != nil {
			b.Fatal(err)
		}
	}
}
