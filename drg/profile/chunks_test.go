package profile

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// chunkedFolder writes a trial of 7 threads in two metric folders whose
// threads differ: thread 5 on have a timer the others lack, threads 0–1
// alone share a host, and thread 3 alone has a user event.
func chunkedFolder(t *testing.T) string {
	files := map[string]string{}
	for k := range 7 {
		for _, m := range []string{"TIME", "PAPI_TOT_CYC"} {
			timers := []string{
				fmt.Sprintf(`"main" 1 2 %d %d 0 GROUP="TAU_DEFAULT"`, 10+k, 100+k),
				fmt.Sprintf(`"work" %d 0 %d %d 0 GROUP="TAU_USER"`, 3+k, 50+2*k, 50+2*k),
			}
			if k >= 5 {
				timers = append(timers, fmt.Sprintf(`"late" 1 0 %d %d 0 GROUP="TAU_USER"`, 7*k, 7*k))
			}
			text := fmt.Sprintf("%d templated_functions_MULTI_%s\n", len(timers), m)
			text += fmt.Sprintf("# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Metric Name</name><value>%s</value></attribute>"+
				"<attribute><name>Hostname</name><value>h%d</value></attribute><attribute><name>OS</name><value>Linux</value></attribute></metadata>\n", m, k/2)
			for _, l := range timers {
				text += l + "\n"
			}
			text += "0 aggregates\n"
			if k == 3 {
				text += "1 userevents\n# eventname numevents max min mean sumsqr\n\"bytes\" 2 8 4 6 80\n"
			}
			files[fmt.Sprintf("MULTI__%s/profile.%d.0.0", m, k)] = text
		}
	}
	return writeTrial(t, files)
}

// TestChunksMatchRead reads a folder whole and a few threads at a time:
// the chunks hold the whole trial's threads in order, each cell's values,
// the user events, and the metadata the whole read gives each thread (a
// chunk's shared metadata is what its own threads share).
func TestChunksMatchRead(t *testing.T) {
	dir := chunkedFolder(t)
	whole := read(t, dir)
	for _, per := range []int{1, 2, 3, 7} {
		c, err := Reader{Path: dir}.Chunks(per)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Threads()) != 7 || c.PerChunk() != per {
			t.Fatalf("per %d: %d threads, %d per chunk", per, len(c.Threads()), c.PerChunk())
		}
		done := 0
		for {
			part, err := c.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(part.Threads) != min(per, 7-done) || part.Name != whole.Name {
				t.Fatalf("per %d: chunk at %d has %d threads, name %q", per, done, len(part.Threads), part.Name)
			}
			sameCells(t, whole, part, done)
			done += len(part.Threads)
		}
		if done != 7 {
			t.Fatalf("per %d: chunks held %d threads", per, done)
		}
	}
}

// sameCells compares every cell, user event and thread attribute of part,
// whose thread i is whole's thread lo+i, with whole's.
func sameCells(t *testing.T, whole, part *drg.Trial, lo int) {
	t.Helper()
	for i, th := range part.Threads {
		w := whole.Threads[lo+i]
		if th.Node != w.Node || th.Context != w.Context || th.Thread != w.Thread {
			t.Fatalf("chunk thread %d is %d.%d.%d, whole has %d.%d.%d", i, th.Node, th.Context, th.Thread, w.Node, w.Context, w.Thread)
		}
		for k, v := range th.Metadata {
			if got, ok := w.Metadata[k]; ok && got != v || !ok && whole.Metadata[k] != v {
				t.Errorf("thread %d attribute %q = %q, whole read has %q / %q", lo+i, k, v, w.Metadata[k], whole.Metadata[k])
			}
		}
		for n, node := range whole.Nodes {
			pn := part.NodeIndex(node.Name)
			if pn < 0 {
				if whole.Has(n, lo+i) {
					t.Fatalf("node %q of thread %d missing from its chunk", node.Name, lo+i)
				}
				continue
			}
			for _, kind := range []int{drg.ColCalls, drg.ColSubroutines} {
				a, _ := whole.Col(kind, 0).At(n, lo+i)
				b, _ := part.Col(kind, 0).At(pn, i)
				if a != b {
					t.Errorf("node %q thread %d column %d: %v, whole %v", node.Name, lo+i, kind, b, a)
				}
			}
			for m := range whole.Metrics {
				for _, kind := range []int{drg.ColInclusive, drg.ColExclusive} {
					a, okA := whole.Col(kind, m).At(n, lo+i)
					b, okB := part.Col(kind, m).At(pn, i)
					if a != b || okA != okB {
						t.Errorf("node %q thread %d metric %d: %v, whole %v", node.Name, lo+i, m, b, a)
					}
				}
			}
		}
		for k := range whole.Counters {
			pk := -1
			for j, c := range part.Counters {
				if c.Name == whole.Counters[k].Name {
					pk = j
				}
			}
			wp := whole.CounterPresent.Get(k*len(whole.Threads) + lo + i)
			if pk < 0 {
				if wp {
					t.Errorf("user event %q of thread %d missing", whole.Counters[k].Name, lo+i)
				}
				continue
			}
			if part.CounterValues[pk*len(part.Threads)+i] != whole.CounterValues[k*len(whole.Threads)+lo+i] {
				t.Errorf("user event %q thread %d differs", whole.Counters[k].Name, lo+i)
			}
		}
	}
}

// TestChunksRefuseSingleFile: one profile file is read whole.
func TestChunksRefuseSingleFile(t *testing.T) {
	dir := writeTrial(t, map[string]string{"profile.0.0.0": "1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n\"main\" 1 0 1 1 0 GROUP=\"TAU_DEFAULT\"\n0 aggregates\n"})
	if _, err := (Reader{Path: dir + "/profile.0.0.0"}).Chunks(1); err == nil {
		t.Fatal("a single file was opened in chunks")
	}
	c, err := Reader{Path: dir}.Chunks(0)
	if err != nil || c.PerChunk() != ChunkBytes/(20+16) {
		t.Fatalf("auto size: %v, %d threads per chunk, want %d", err, c.PerChunk(), ChunkBytes/(20+16))
	}
}
