package ppk

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// FuzzDecode decodes arbitrary bytes: Decode must return a trial or an
// *Error naming the file and an offset, and never panic. Detect must not
// panic either. The seeds are the real files (gzip and raw payload, when
// the shared data folder holds them), the hand-made profiles, and a profile
// the writer made.
func FuzzDecode(f *testing.F) {
	if _, ok := realdata.Find(dataRel); ok {
		for _, rf := range realFiles {
			gz := readFile(f, rf.path)
			f.Add(gz)
			f.Add(gunzip(f, gz))
		}
	}
	hand := handMade().encode()
	f.Add(hand)
	f.Add(gzipBytes(hand))
	v1 := handMade()
	v1.version, v1.compatible, v1.v1Header = 1, 1, []byte("skipped")
	f.Add(v1.encode())
	// A profile from the real writer, with callpaths and several metrics.
	tr, err := synth.Generate(synth.Spec{Processes: 2, ThreadsPerProcess: 2, Regions: 3, Depth: 2, Metrics: 2, Serial: 10, Parallel: 10})
	if err != nil {
		f.Fatal(err)
	}
	var w bytes.Buffer
	if err := Write(&w, tr); err != nil {
		f.Fatal(err)
	}
	f.Add(w.Bytes())
	f.Add(gunzip(f, w.Bytes()))
	f.Fuzz(func(t *testing.T, data []byte) {
		Detect(data)
		tr, err := decodeBytes(data, "fuzz.ppk")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Path != "fuzz.ppk" || e.Offset < 0 ||
				!strings.HasPrefix(err.Error(), "fuzz.ppk: offset ") {
				t.Fatalf("error %q is not an *Error with the file and offset", err)
			}
			return
		}
		nt, nn := len(tr.Threads), len(tr.Nodes)
		if nt == 0 || len(tr.Metrics) == 0 || len(tr.Values) != len(tr.Metrics) {
			t.Fatalf("%d threads, %d metrics, %d value columns", nt, len(tr.Metrics), len(tr.Values))
		}
		if len(tr.Calls) != nn*nt || len(tr.Subroutines) != nn*nt || tr.Present.Len() != nn*nt {
			t.Fatalf("calls %d, subrs %d, present %d for %d nodes × %d threads",
				len(tr.Calls), len(tr.Subroutines), tr.Present.Len(), nn, nt)
		}
		for m := range tr.Values {
			if len(tr.Values[m].Inclusive) != nn*nt || len(tr.Values[m].Exclusive) != nn*nt {
				t.Fatalf("metric %d: %d/%d values", m, len(tr.Values[m].Inclusive), len(tr.Values[m].Exclusive))
			}
		}
		if len(tr.CounterValues) != len(tr.Counters)*nt {
			t.Fatalf("%d counter values for %d counters", len(tr.CounterValues), len(tr.Counters))
		}
		for i, n := range tr.Nodes {
			if n.Parent < -1 || n.Parent >= nn || n.Parent == i || n.Region < 0 || n.Region >= len(tr.Regions) {
				t.Fatalf("node %d %+v", i, n)
			}
		}
	})
}
