package drg

import "sort"

// sparseBuild is the Builder's store of node values once the trial went
// sparse: one slot per (node, thread) cell that holds a record, in the
// order the cells arrived; Finish sorts them into a SparseValues.
type sparseBuild struct {
	slot         map[int64]int32
	node, thread []int32
	incl, excl   [][]float64
	calls, subrs []float64
}

// cell returns the slot of (node n, thread th) among nt threads, adding an
// empty one if new, and whether it was new.
func (s *sparseBuild) cell(nt, n, th int) (int, bool) {
	key := int64(n)*int64(nt) + int64(th)
	if i, ok := s.slot[key]; ok {
		return int(i), false
	}
	i := len(s.node)
	s.slot[key] = int32(i)
	s.node = append(s.node, int32(n))
	s.thread = append(s.thread, int32(th))
	for m := range s.incl {
		s.incl[m] = append(s.incl[m], 0)
		s.excl[m] = append(s.excl[m], 0)
	}
	s.calls = append(s.calls, 0)
	s.subrs = append(s.subrs, 0)
	return i, true
}

// StartSparse makes the builder store node values sparsely from now on,
// moving the cells added so far (see SparseValues). Readers that know
// before adding values that the trial is too sparse for the dense layout
// (CheckDensity fails on the counts of a ppk's profiles, or of a
// database's rows) call it; the Builder also does when Sparse is set and a
// new node would make the dense layout too sparse.
func (b *Builder) StartSparse() {
	if b.sparse != nil {
		return
	}
	t := b.t
	nt := len(t.Threads)
	s := &sparseBuild{slot: map[int64]int32{}, incl: make([][]float64, len(t.Metrics)), excl: make([][]float64, len(t.Metrics))}
	if nt > 0 {
		for c := 0; c < t.Present.Len(); c++ {
			if !t.Present.Get(c) {
				continue
			}
			i, _ := s.cell(nt, c/nt, c%nt)
			for m := range t.Values {
				s.incl[m][i] = t.Values[m].Inclusive[c]
				s.excl[m][i] = t.Values[m].Exclusive[c]
			}
			s.calls[i], s.subrs[i] = t.Calls[c], t.Subroutines[c]
		}
	}
	for m := range t.Values {
		t.Values[m] = MetricValues{}
	}
	t.Calls, t.Subroutines, t.Present = nil, nil, Bitmap{}
	b.sparse = s
}

// sparseCell returns the slot of (node, th) in sparse mode and records it
// for the density estimate.
func (b *Builder) sparseCell(node, th int) int {
	i, isNew := b.sparse.cell(len(b.t.Threads), node, th)
	b.density.mark(th, isNew)
	return i
}

// sparseRowCounts returns the number of cells of every node in sparse
// mode.
func (b *Builder) sparseRowCounts() []int {
	out := make([]int, len(b.t.Nodes))
	for _, n := range b.sparse.node {
		out[n]++
	}
	return out
}

// finishSparse sorts the cells by node then thread into the trial's
// SparseValues.
func (b *Builder) finishSparse() {
	s, t := b.sparse, b.t
	order := make([]int32, len(s.node))
	for i := range order {
		order[i] = int32(i)
	}
	sort.Slice(order, func(i, j int) bool {
		a, c := order[i], order[j]
		if s.node[a] != s.node[c] {
			return s.node[a] < s.node[c]
		}
		return s.thread[a] < s.thread[c]
	})
	permute := func(x []float64) []float64 {
		out := make([]float64, len(order))
		for k, i := range order {
			out[k] = x[i]
		}
		return out
	}
	sv := &SparseValues{Start: make([]int, len(t.Nodes)+1), Thread: make([]int32, len(order))}
	for k, i := range order {
		sv.Thread[k] = s.thread[i]
		sv.Start[s.node[i]+1]++
	}
	for n := range t.Nodes {
		sv.Start[n+1] += sv.Start[n]
	}
	for m := range s.incl {
		sv.Inclusive = append(sv.Inclusive, permute(s.incl[m]))
		sv.Exclusive = append(sv.Exclusive, permute(s.excl[m]))
	}
	sv.Calls, sv.Subroutines = permute(s.calls), permute(s.subrs)
	t.Sparse, b.sparse = sv, nil
}
