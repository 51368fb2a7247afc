package snapshot

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// BenchmarkDecode decodes the real merged file (176 KB, 8 threads, 79
// events, 217 user events, derived profiles) from memory. Compare its MB/s
// with BenchmarkReadBytes.
func BenchmarkDecode(b *testing.B) {
	benchDecode(b, readFile(b, realFile(b)))
}

// BenchmarkDecodeLarge decodes a generated merged stream of 64 threads ×
// 2000 events × 2 metrics and 200 user events (about 10 MB), where the
// data lines dominate.
func BenchmarkDecodeLarge(b *testing.B) {
	benchDecode(b, largeStream(64, 2000, 200))
}

func benchDecode(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(bytes.NewReader(data), "bench.xml"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadBytes only reads the bytes of the real file, as a reader
// with no WriteTo, through io.Copy: the floor any decoder pays.
func BenchmarkReadBytes(b *testing.B) {
	data := readFile(b, realFile(b))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := io.Copy(io.Discard, struct{ io.Reader }{bytes.NewReader(data)}); err != nil {
			b.Fatal(err)
		}
	}
}

// largeStream writes a merged stream with global definitions, as TAU does.
func largeStream(threads, events, userEvents int) []byte {
	var w bytes.Buffer
	w.WriteString("<profile_xml>\n<definitions thread=\"*\">\n")
	w.WriteString("<metric id=\"0\"><name>TIME</name>\n<units>unknown</units>\n</metric>\n")
	w.WriteString("<metric id=\"1\"><name>PAPI_FP_OPS</name>\n<units>unknown</units>\n</metric>\n")
	for e := range events {
		fmt.Fprintf(&w, "<event id=\"%d\"><name>function_%d [{file%d.c} {%d,1}-{%d,1}]</name><group>TAU_USER</group></event>\n", e, e, e%7, e, e+10)
	}
	for u := range userEvents {
		fmt.Fprintf(&w, "<userevent id=\"%d\"><name>event %d : main =&gt; f</name></userevent>\n", u, u)
	}
	w.WriteString("</definitions>\n</profile_xml>\n")
	for t := range threads {
		id := fmt.Sprintf("%d.0.0.%d", t, 1000+t)
		fmt.Fprintf(&w, "<profile_xml>\n<thread id=\"%s\" node=\"%d\" context=\"0\" thread=\"0\">\n<metadata>\n", id, t)
		fmt.Fprintf(&w, "<attribute>\n<name>pid</name>\n<value>%d</value>\n</attribute>\n</metadata>\n</thread>\n", 1000+t)
		fmt.Fprintf(&w, "<profile thread=\"%s\">\n<timestamp>%d</timestamp>\n<interval_data metrics=\"0 1 \">\n", id, 1386278165195333+t)
		for e := range events {
			x := float64((e*7919+t*104729)%1000003) / 7
			fmt.Fprintf(&w, "%d %d %d %.16G %.16G %d %d \n", e, 1+e%50, e%3, x, x*1.5, e*1000+t, e*2000+t)
		}
		w.WriteString("</interval_data>\n<atomic_data>\n")
		for u := range userEvents {
			fmt.Fprintf(&w, "%d %d %.16G %.16G %.16G %.16G\n", u, 10+u, float64(u)*3.5, 0.25, float64(u)*1.7, float64(u*u)*31.3)
		}
		w.WriteString("</atomic_data>\n</profile>\n\n</profile_xml>\n\x00")
	}
	return w.Bytes()
}
