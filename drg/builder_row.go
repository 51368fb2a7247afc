package drg

import (
	"math"
	"math/bits"
	"slices"
	"sync/atomic"
)

// AddRow adds one node's values on many threads at once, as AddValues and
// AddCalls would for every entry k with keep[k] (every k when keep is
// nil): thread column first+k (cols[k] when cols is not nil) gets
// excl[m][k] and, when incl is not nil, incl[m][k] of every metric m,
// calls[k] and subrs[k] (zero when nil), and is marked present. Readers
// that hold values densely (a calling context tree) add a node's row with
// one call instead of one call per value. Negative values are replaced by
// zero and reported, as AddValues does.
//
// With cols nil, AddRow may run in several goroutines at once on disjoint
// column ranges once every node exists (no other Builder method running
// meanwhile): each call writes only its own cells, and the presence
// bitmap's words shared by two ranges are updated atomically.
func (b *Builder) AddRow(node, first int, cols []int, keep []bool, excl, incl [][]float64, calls, subrs []float64) {
	if b.err != nil {
		return
	}
	if b.sparse != nil {
		b.addRowSparse(node, first, cols, keep, excl, incl, calls, subrs)
		return
	}
	base := node * len(b.t.Threads)
	n := len(calls)
	for _, col := range excl {
		n = len(col)
	}
	if cols == nil {
		atomic.AddInt64(&b.density.present, int64(b.t.Present.orMask(base+first, n, keep)))
		if keep == nil || !slices.Contains(keep[:n], false) {
			b.addDense(node, base+first, first, excl, incl, calls, subrs)
			return
		}
	}
	touched := 0
	for k := 0; k < n; k++ {
		if keep != nil && !keep[k] {
			continue
		}
		th := first + k
		if cols != nil {
			th = cols[k]
			if c := base + th; !b.t.Present.Get(c) {
				b.t.Present.Set(c)
				b.density.present++
			}
		}
		if !b.density.touched[th] {
			b.density.touched[th] = true
			touched++
		}
		if calls != nil {
			b.t.Calls[base+th] += calls[k]
		}
		if subrs != nil {
			b.t.Subroutines[base+th] += subrs[k]
		}
	}
	if touched > 0 {
		atomic.AddInt64(&b.density.nTouched, int64(touched))
	}
	for m := range excl {
		var in []float64
		if incl != nil {
			in = incl[m]
		}
		b.addColumn(node, base+first, m, cols, keep, excl[m], in)
	}
}

// addColumn adds metric m's row of AddRow: entry k goes to cell at+k, or
// to the node's cell of column cols[k] (at is then the node's first cell).
func (b *Builder) addColumn(node, at, m int, cols []int, keep []bool, ex, in []float64) {
	dstE, dstI := b.t.Values[m].Exclusive, b.t.Values[m].Inclusive
	for k, e := range ex {
		if keep != nil && !keep[k] {
			continue
		}
		c := at + k
		if cols != nil {
			c = node*len(b.t.Threads) + cols[k]
		}
		i := 0.0
		if in != nil {
			i = in[k]
		}
		if e < 0 || i < 0 {
			b.negative(node, c-node*len(b.t.Threads))
			e, i = math.Max(e, 0), math.Max(i, 0)
		}
		dstE[c] += e
		dstI[c] += i
	}
}

// negative counts a negative value of node on thread column th, keeping
// the first one's place for the warning (the lock: AddRow may run in
// parallel).
func (b *Builder) negative(node, th int) {
	b.negMu.Lock()
	defer b.negMu.Unlock()
	if b.negatives == 0 {
		b.firstNegative = formatCell(b.t, node, th)
	}
	b.negatives++
}

// orMask sets the bits from..from+n-1 whose keep entry is true (all when
// keep is nil) and returns how many were clear before. A word wholly in
// the range is updated plainly; a word the range shares with bits outside
// it is updated atomically, so that calls on disjoint ranges may run at
// once.
func (b *Bitmap) orMask(from, n int, keep []bool) int {
	newly := 0
	for k := 0; k < n; {
		c := from + k
		w, off := c>>6, uint(c&63)
		cnt := min(64-int(off), n-k)
		var mask uint64
		for j := 0; j < cnt; j++ {
			if keep == nil || keep[k+j] {
				mask |= 1 << (off + uint(j))
			}
		}
		if mask != 0 {
			var old uint64
			if cnt == 64 {
				old = b.words[w]
				b.words[w] = old | mask
			} else {
				old = atomic.OrUint64(&b.words[w], mask)
			}
			newly += bits.OnesCount64(mask &^ old)
		}
		k += cnt
	}
	return newly
}

// addDense is AddRow for a row whose every entry is added, to the cells
// at.. of columns first..: plain loops over the row, without a test per
// entry (the presence bits are set by AddRow).
func (b *Builder) addDense(node, at, first int, excl, incl [][]float64, calls, subrs []float64) {
	n := len(calls)
	for _, col := range excl {
		n = len(col)
	}
	if atomic.LoadInt64(&b.density.nTouched) < int64(len(b.density.touched)) {
		touched := 0
		for th := first; th < first+n; th++ {
			if !b.density.touched[th] {
				b.density.touched[th] = true
				touched++
			}
		}
		atomic.AddInt64(&b.density.nTouched, int64(touched))
	}
	addTo(b.t.Calls[at:at+n], calls)
	addTo(b.t.Subroutines[at:at+n], subrs)
	for m, ex := range excl {
		var in []float64
		if incl != nil {
			in = incl[m]
		}
		if slices.ContainsFunc(ex, isNegative) || slices.ContainsFunc(in, isNegative) {
			b.addColumn(node, at, m, nil, nil, ex, in)
			continue
		}
		addTo(b.t.Values[m].Exclusive[at:at+n], ex)
		addTo(b.t.Values[m].Inclusive[at:at+n], in)
	}
}

// addTo adds src to dst entry by entry (nothing when src is nil).
func addTo(dst, src []float64) {
	if src == nil {
		return
	}
	dst = dst[:len(src)]
	for k, v := range src {
		dst[k] += v
	}
}

func isNegative(v float64) bool { return v < 0 }

// addRowSparse is AddRow on a builder that stores values sparsely: one
// AddCalls and one AddValues per metric for each kept entry (a sparse
// builder is not filled from several goroutines).
func (b *Builder) addRowSparse(node, first int, cols []int, keep []bool, excl, incl [][]float64, calls, subrs []float64) {
	n := len(calls)
	for _, col := range excl {
		n = len(col)
	}
	for k := 0; k < n; k++ {
		if keep != nil && !keep[k] {
			continue
		}
		th := first + k
		if cols != nil {
			th = cols[k]
		}
		var c, s float64
		if calls != nil {
			c = calls[k]
		}
		if subrs != nil {
			s = subrs[k]
		}
		b.AddCalls(node, th, c, s)
		for m := range excl {
			in := 0.0
			if incl != nil {
				in = incl[m][k]
			}
			b.AddValues(node, th, m, excl[m][k], in)
		}
	}
}
