package store

import (
	"encoding/binary"
	"math"
	"math/bits"
	"sort"
)

// pageTable is taudb-analyze's table of the trials' values in pages
// (schema/ours_*.sql): a copy of the real threads' timer_call_data and
// timer_value values, column by column, that LoadTrial reads instead of one
// row per value.
const pageTable = "trial_value_page"

// pageBytes is the most bytes one page row holds: with its other columns
// the row stays within a PostgreSQL heap page (8 kB), stored inline
// (STORAGE PLAIN), so a stream reads back as a range of the primary key
// without TOAST lookups.
const pageBytes = 8000

// pageBlockThreads is the most threads of one block of pages (a chunk of a
// chunked save is cut into blocks too). LoadTrial holds one block's
// streams at a time: 2,048 threads × 1,001 nodes × 6 columns × 8 B is
// about 100 MB.
var pageBlockThreads = 2048

// The streams of a block: the layout, calls, subroutines, then per metric
// m its inclusive (streamValues+2m) and exclusive (streamValues+2m+1)
// values.
const (
	streamLayout = iota
	streamCalls
	streamSubroutines
	streamValues
)

// layoutHeader is the size of the layout stream's header: the number of
// nodes and of metrics.
const layoutHeader = 8

// numStreams is the number of streams of a block of a trial of nm metrics.
func numStreams(nm int) int { return streamValues + 2*nm }

// pageBlock is one block of threads [lo, hi) of a plan's trial, with the
// cells of each node that has data, node by node (blockNodes order).
type pageBlock struct {
	lo, hi int
	cells  [][]int // per node of blockNodes: the cells of threads lo..hi-1 that hold values
	ths    [][]int // the threads of those cells
	count  int     // cells in all
}

// blockNodes returns the nodes whose cells a plan writes as pages: the
// stored nodes with data, in timer_callpath id order.
func (p *savePlan) blockNodes() []int {
	var out []int
	for _, n := range p.stored {
		if p.hasData[n] {
			out = append(out, n)
		}
	}
	return out
}

// block gathers the cells of threads [lo, hi) of nodes.
func (p *savePlan) block(nodes []int, lo, hi int) pageBlock {
	b := pageBlock{lo: lo, hi: hi, cells: make([][]int, len(nodes)), ths: make([][]int, len(nodes))}
	sp := p.t.Sparse
	for i, n := range nodes {
		if sp != nil {
			start, end := sp.Start[n], sp.Start[n+1]
			k := start + sort.Search(end-start, func(j int) bool { return int(sp.Thread[start+j]) >= lo })
			for ; k < end && int(sp.Thread[k]) < hi; k++ {
				b.cells[i] = append(b.cells[i], k)
				b.ths[i] = append(b.ths[i], int(sp.Thread[k]))
			}
		} else {
			for th := lo; th < hi; th++ {
				if c := n*p.nt + th; p.t.Present.Get(c) {
					b.cells[i] = append(b.cells[i], c)
					b.ths[i] = append(b.ths[i], th)
				}
			}
		}
		b.count += len(b.cells[i])
	}
	return b
}

// layout encodes a block's stream 0: the number of nodes and of metrics
// (uint32 each), the nodes' timer_callpath ids (uint32 each), then a bitmap of nodes × threads bits,
// node-major, bit j of byte i being cell 8i+j, set where the cell holds
// values.
func (p *savePlan) layout(nodes []int, b pageBlock) []byte {
	w := b.hi - b.lo
	out := make([]byte, layoutHeader+4*len(nodes)+(len(nodes)*w+7)/8)
	binary.LittleEndian.PutUint32(out, uint32(len(nodes)))
	binary.LittleEndian.PutUint32(out[4:], uint32(p.nm))
	bitmap := out[layoutHeader+4*len(nodes):]
	for i, n := range nodes {
		binary.LittleEndian.PutUint32(out[layoutHeader+4*i:], uint32(p.callpathID(n)))
		for _, th := range b.ths[i] {
			k := i*w + th - b.lo
			bitmap[k>>3] |= 1 << (k & 7) // read by cellSet
		}
	}
	return out
}

// decodeLayout reads a layout stream b (see layout) of a block of threads
// threads: the number of metrics, the nodes' timer_callpath ids and the
// bitmap of the cells; ok is false when b is not of that shape.
func decodeLayout(b []byte, threads int) (nm int, ids []int64, bitmap []byte, ok bool) {
	if len(b) < layoutHeader {
		return 0, nil, nil, false
	}
	nn, nm := int(binary.LittleEndian.Uint32(b)), int(binary.LittleEndian.Uint32(b[4:]))
	if nn > (len(b)-layoutHeader)/4 || len(b) != layoutHeader+4*nn+(nn*threads+7)/8 {
		return nm, nil, nil, false
	}
	ids = make([]int64, nn)
	for i := range ids {
		ids[i] = int64(binary.LittleEndian.Uint32(b[layoutHeader+4*i:]))
	}
	return nm, ids, b[layoutHeader+4*nn:], true
}

// cellSet reports whether cell k of a layout's bitmap holds values.
func cellSet(bitmap []byte, k int) bool { return bitmap[k>>3]&(1<<(k&7)) != 0 }

// stream encodes value stream s of a block: the value of every cell that
// holds values, node by node, as little-endian float64.
func (p *savePlan) stream(b pageBlock, s int) []byte {
	out := make([]byte, 0, 8*b.count)
	for _, cells := range b.cells {
		for _, c := range cells {
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(p.cellStream(c, s)))
		}
	}
	return out
}

// cellStream returns a real thread's cell value of stream s.
func (p *savePlan) cellStream(cell, s int) float64 {
	switch s {
	case streamCalls, streamSubroutines:
		calls, subs := p.callCounts(&callData{kind: cdReal, cell: cell})
		if s == streamCalls {
			return calls
		}
		return subs
	}
	m := (s - streamValues) / 2
	incl, excl := p.cellValues(m, cell)
	if (s-streamValues)%2 == 0 {
		return incl
	}
	return excl
}

// pageRows returns the trial_value_page rows of the plan's real threads,
// in blocks of at most pageBlockThreads threads; the plan's thread i is
// the trial's thread first+i.
func (p *savePlan) pageRows(first int) tableRows {
	cols := []string{"trial", "first_thread", "threads", "stream", "page", "data"}
	if !p.keepPages {
		return tableRows{pageTable, cols, 0, gen(0, len(cols), nil)}
	}
	nodes := p.blockNodes()
	rows := 0
	for lo := 0; lo < p.nt; lo += pageBlockThreads {
		hi := min(lo+pageBlockThreads, p.nt)
		rows += pages(layoutHeader + 4*len(nodes) + (len(nodes)*(hi-lo)+7)/8)
		cells := 0
		for _, n := range nodes {
			cells += p.cellsIn(n, lo, hi)
		}
		rows += (numStreams(p.nm) - 1) * pages(8*cells)
	}
	var blk pageBlock
	var data []byte
	started, st, page := false, 0, 0
	row := make([]any, len(cols))
	next := func() ([]any, bool) {
		for !started || page*pageBytes >= len(data) {
			switch {
			case !started:
				started, st, blk = true, streamLayout, p.block(nodes, 0, min(pageBlockThreads, p.nt))
			case st+1 < numStreams(p.nm):
				st++
			case blk.hi >= p.nt:
				return nil, false
			default:
				st, blk = streamLayout, p.block(nodes, blk.hi, min(blk.hi+pageBlockThreads, p.nt))
			}
			page = 0
			if st == streamLayout {
				data = p.layout(nodes, blk)
			} else {
				data = p.stream(blk, st)
			}
		}
		end := min((page+1)*pageBytes, len(data))
		row[0], row[1], row[2], row[3], row[4], row[5] = p.trialID(), int64(first+blk.lo), int64(blk.hi-blk.lo), int64(st), int64(page), data[page*pageBytes:end]
		page++
		return row, true
	}
	return tableRows{pageTable, cols, rows, next}
}

// pages is the number of pages of a stream of n bytes.
func pages(n int) int { return (n + pageBytes - 1) / pageBytes }

// cellsIn counts node n's cells of threads [lo, hi) that hold values.
func (p *savePlan) cellsIn(n, lo, hi int) int {
	if sp := p.t.Sparse; sp != nil {
		start, end := sp.Start[n], sp.Start[n+1]
		a := sort.Search(end-start, func(j int) bool { return int(sp.Thread[start+j]) >= lo })
		b := sort.Search(end-start, func(j int) bool { return int(sp.Thread[start+j]) >= hi })
		return b - a
	}
	return p.t.Present.Count(n*p.nt+lo, n*p.nt+hi)
}

// popcount counts the set bits of a bitmap.
func popcount(b []byte) int {
	n := 0
	for _, x := range b {
		n += bits.OnesCount8(x)
	}
	return n
}
