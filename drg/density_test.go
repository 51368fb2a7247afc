package drg

import (
	"errors"
	"fmt"
	"runtime"
	"testing"
)

// TestSparseTrialRefused builds the trial of 8,000 ranks that each have a
// timer of their own besides "main" (16,000 cells with values out of
// 8,001 × 8,000 = 64 million): the builder refuses it once it passes
// DenseFloorCells with far more than MaxEmptyRatio empty cells per full
// one, holding under 400 MB (the dense trial would take 2 GB, 32 bytes
// a cell). A dense trial of 2,100 nodes × 4,000 threads (8.4 M
// cells, over the floor) is accepted.
func TestSparseTrialRefused(t *testing.T) {
	const ranks = 8000
	ids := make([]ThreadID, ranks)
	for i := range ids {
		ids[i] = ThreadID{Node: i}
	}
	b, err := NewBuilder(ids)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m := b.Metric("TIME")
	stopped := -1
	for r := 0; r < ranks && stopped < 0; r++ {
		b.AddValues(b.Node("main"), r, m, 1, 2)
		b.AddValues(b.Node(fmt.Sprintf("own %d", r)), r, m, 1, 1)
		if b.Err() != nil {
			stopped = r
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	var se *SparseError
	if !errors.As(b.Err(), &se) || !errors.Is(b.Err(), ErrTooSparse) {
		t.Fatalf("error %v, want a SparseError", b.Err())
	}
	// Refused at the first node past the floor, nodes × 8000 > 2^23: the
	// node "own r" of rank r = nodes − 2, when ranks 0..r are touched and
	// 2r+1 cells hold values, estimated at (2r+1) × 8000 / (r+1) in all.
	want := DenseFloorCells/ranks + 1
	r := int64(want - 2)
	if se.Nodes != want || se.Present != (2*r+1)*ranks/(r+1) {
		t.Errorf("refused at %d nodes with %d present (estimated), want %d and %d", se.Nodes, se.Present, want, (2*r+1)*ranks/(r+1))
	}
	if _, err := b.Finish("sparse", Source{}); !errors.Is(err, ErrTooSparse) {
		t.Errorf("Finish: %v", err)
	}
	if n := int64(after.HeapAlloc) - int64(before.HeapAlloc); n > 400<<20 {
		t.Errorf("the builder holds %d MB", n>>20)
	}
	runtime.KeepAlive(b)

	if testing.Short() {
		return
	}
	ids = ids[:4000]
	d, err := NewBuilder(ids)
	if err != nil {
		t.Fatal(err)
	}
	m = d.Metric("TIME")
	names := make([]string, 2100)
	for n := range names {
		names[n] = fmt.Sprintf("r%d", n)
	}
	for r := range ids { // rank by rank, as the profile reader merges
		for _, n := range names {
			d.AddValues(d.Node(n), r, m, 1, 1)
		}
	}
	if _, err := d.Finish("dense", Source{}); err != nil {
		t.Errorf("dense trial: %v", err)
	}
}
