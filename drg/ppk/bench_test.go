package ppk

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/synth"
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
	path := filepath.Join(dataDir(b), benchFile)
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

// BenchmarkWrite writes packed profiles to io.Discard: a generated trial of
// 256 threads, 401 nodes and 2 metrics (a 5 MB payload), and matmult.ppk.
// MB/s is of the decompressed payload, the bytes the encoder produces; the
// gzip-only sub-benchmark compresses the same payload, the reference.
func BenchmarkWrite(b *testing.B) {
	big, err := synth.Generate(synth.Spec{Processes: 128, ThreadsPerProcess: 2, Regions: 200, Depth: 2, Metrics: 2,
		Serial: 1e5, Parallel: 1e6, Noise: 0.1, Imbalance: 0.2, Seed: 3})
	if err != nil {
		b.Fatal(err)
	}
	mm, err := Decode(bytes.NewReader(readFile(b, benchFile)), benchFile)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		t    *drg.Trial
	}{{"synth", big}, {"matmult", mm}} {
		b.Run(c.name, func(b *testing.B) {
			var out bytes.Buffer
			if err := Write(&out, c.t); err != nil {
				b.Fatal(err)
			}
			payload := gunzip(b, out.Bytes())
			b.Run("write", func(b *testing.B) {
				b.SetBytes(int64(len(payload)))
				b.ReportAllocs()
				for b.Loop() {
					if err := Write(io.Discard, c.t); err != nil {
						b.Fatal(err)
					}
				}
			})
			// The reference: gzip alone on the same payload, the floor
			// that Write compares with.
			b.Run("gzip-only", func(b *testing.B) {
				b.SetBytes(int64(len(payload)))
				b.ReportAllocs()
				for b.Loop() {
					zw := gzip.NewWriter(io.Discard)
					if _, err := zw.Write(payload); err != nil {
						b.Fatal(err)
					}
					if err := zw.Close(); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
