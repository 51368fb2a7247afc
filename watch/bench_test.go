package watch

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/synth"
)

// BenchmarkDumpToPage measures, for one interval of a job writing snapshot
// files, the time from every rank's document being written to the live
// page being updated: reading the new bytes of every file, the deltas,
// statistics, histograms, k-means and anomaly rules, and writing the page.
// The interval's documents are written outside the timer. It reports the
// heap in use after the interval per rank × region cell (bytes).
//
//	go test ./watch -run - -bench DumpToPage -benchtime 3x
func BenchmarkDumpToPage(b *testing.B) {
	for _, ranks := range []int{1024, 16384} {
		b.Run(fmt.Sprintf("ranks=%d/regions=1000", ranks), func(b *testing.B) {
			benchDumpToPage(b, ranks, 1000)
		})
	}
}

func benchDumpToPage(b *testing.B, ranks, regions int) {
	job, err := synth.NewJob(synth.JobSpec{Ranks: ranks, Regions: regions - 1, Intervals: b.N + 2, Noise: 0.02, Seed: 1, SlowRank: -1, PhaseRegion: -1})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	wr := &synth.Writer{Job: job, Dir: dir}
	w, err := New(dir, Options{Ranks: ranks})
	if err != nil {
		b.Fatal(err)
	}
	page := &Page{Dir: filepath.Join(dir, "live")}
	var pollTime, pageTime, cpuTime time.Duration
	step := func() {
		t0, c0 := time.Now(), cpuNow()
		defer func() { cpuTime += cpuNow() - c0 }()
		ivs, err := w.Poll(context.Background())
		pollTime += time.Since(t0)
		defer func() { pageTime += time.Since(t0) }()
		if err != nil || len(ivs) != 1 {
			b.Fatalf("poll: %d intervals, %v", len(ivs), err)
		}
		w.Add(ivs)
		w.Release(ivs[0])
		if err := page.Write(w.View()); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := wr.Next(); err != nil { // interval 0 defines the regions
		b.Fatal(err)
	}
	step()
	pollTime, pageTime, cpuTime = 0, 0, 0
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		if _, err := wr.Next(); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		b.StartTimer()
		step()
	}
	b.StopTimer()
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/float64(ranks*regions), "heap-B/cell")
	b.ReportMetric(float64(ranks*regions), "cells")
	b.ReportMetric(pollTime.Seconds()/float64(b.N), "poll-s/op")
	b.ReportMetric(cpuTime.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(refRead(b, dir).Seconds()/float64(b.N+1), "ref-read-s/op") // the files hold b.N+1 intervals
	runtime.KeepAlive(w)
	os.RemoveAll(dir)
}

// cpuNow is the process's user and system CPU time.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// refRead is the reference the benchmark is compared with, measured in
// the same run: the wall time to read every file of the folder whole and
// count its lines (no parsing), which bounds any reader from below.
func refRead(b *testing.B, dir string) time.Duration {
	ents, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	lines := 0
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		lines += bytes.Count(data, []byte{'\n'})
	}
	_ = lines
	return time.Since(t0)
}
