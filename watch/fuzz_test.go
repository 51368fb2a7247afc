package watch

import (
	"bytes"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/synth"
)

// FuzzSnapshotDoc feeds arbitrary bytes to the snapshot reader as growing
// file contents: it never panics, and what it parses is a prefix of
// complete documents.
func FuzzSnapshotDoc(f *testing.F) {
	job, _ := synth.NewJob(synth.JobSpec{Ranks: 1, Regions: 2, Intervals: 2, SlowRank: -1, PhaseRegion: -1})
	w := &synth.Writer{Job: job}
	_, d0, _ := w.Piece(0, 0)
	_, d1, _ := w.Piece(1, 0)
	f.Add(append(append([]byte(nil), d0...), d1...))
	f.Add(d0[:len(d0)/2])
	f.Add([]byte("<profile_xml><profile thread=\"x\"><interval_data metrics=\"0\">\n0 1 2 3 4\n</interval_data></profile></profile_xml>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &snapReader{path: "snapshot.0.0.0"}
		reg := newRegions()
		var d dump
		for len(data) > 0 {
			end := bytes.Index(data, docEnd)
			if end < 0 {
				return
			}
			doc := data[:end+len(docEnd)]
			d.reset()
			if _, err := s.parseDoc(doc, reg, &d); err != nil {
				return
			}
			for _, r := range d.region {
				if int(r) >= reg.count() {
					t.Fatalf("region %d of %d", r, reg.count())
				}
			}
			data = data[len(doc):]
		}
	})
}
