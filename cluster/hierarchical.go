package cluster

import (
	"fmt"
	"math"
	"sort"
)

// MaxHierarchical is the most rows Hierarchical accepts: it keeps the
// n(n−1)/2 pairwise distances (8 bytes each) in memory.
const MaxHierarchical = 8192

// Merge is one step of an agglomerative clustering, in SciPy's linkage
// convention: rows are clusters 0..n−1, and merge i creates cluster n+i.
type Merge struct {
	// A and B are the merged clusters (A < B).
	A, B int
	// Height is the linkage distance between A and B when merged.
	Height float64
	// Size is the number of rows in the new cluster.
	Size int
}

// Hierarchical clusters the rows of m agglomeratively with average linkage
// (UPGMA) on Euclidean distances: the distance between clusters P and Q is
// d(P, Q) = (1 / |P||Q|) Σ_{p∈P} Σ_{q∈Q} ‖x_p − x_q‖, kept up to date by
// the Lance–Williams update d(P∪Q, R) = (|P| d(P,R) + |Q| d(Q,R)) / (|P| +
// |Q|). It uses the nearest-neighbour chain algorithm (O(n²) time and
// memory; valid since average linkage is reducible) and returns the n−1
// merges in increasing height (ties in the order they were made).
func Hierarchical(m Matrix) ([]Merge, error) {
	n := m.N
	if n > MaxHierarchical {
		return nil, fmt.Errorf("cluster: hierarchical clustering of %d threads exceeds %d (n² distances)", n, MaxHierarchical)
	}
	if n < 2 {
		return nil, nil
	}
	dist := newCondensed(m)
	merges, err := nnChain(dist)
	if err != nil {
		return nil, err
	}
	return scipyMerges(merges, n), nil
}

// condensed holds the distances of n rows, pair (i<j) at
// i*n − i(i+1)/2 + j − i − 1.
type condensed struct {
	n int
	d []float64
}

// newCondensed computes the Euclidean distances between the rows of m.
func newCondensed(m Matrix) condensed {
	n := m.N
	c := condensed{n: n, d: make([]float64, n*(n-1)/2)}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			c.d[c.at(i, j)] = math.Sqrt(sqDist(m.Row(i), m.Row(j)))
		}
	}
	return c
}

// at is the index of pair (i, j), in either order.
func (c condensed) at(i, j int) int {
	if i > j {
		i, j = j, i
	}
	return i*c.n - i*(i+1)/2 + j - i - 1
}

// rawMerge is one merge of slots in the order the chain made it; the
// union lives in slot b.
type rawMerge struct {
	a, b   int
	h      float64
	size   int
	serial int
}

// nnChain runs the nearest-neighbour chain with average linkage (the
// Lance–Williams update) and returns the n−1 merges in the order made.
func nnChain(dist condensed) ([]rawMerge, error) {
	n := dist.n
	size := make([]int, n)
	active := make([]bool, n)
	for i := range size {
		size[i], active[i] = 1, true
	}
	merges := make([]rawMerge, 0, n-1)
	chain := make([]int, 0, n)
	for len(merges) < n-1 {
		if len(chain) == 0 {
			for i := 0; i < n; i++ {
				if active[i] {
					chain = append(chain, i)
					break
				}
			}
		}
		var a, b int
		var err error
		if chain, a, b, err = reciprocalPair(dist, chain, active); err != nil {
			return nil, err
		}
		h := dist.d[dist.at(a, b)]
		na, nb := float64(size[a]), float64(size[b])
		for k := 0; k < n; k++ {
			if k == a || k == b || !active[k] {
				continue
			}
			dist.d[dist.at(b, k)] = (na*dist.d[dist.at(a, k)] + nb*dist.d[dist.at(b, k)]) / (na + nb)
		}
		active[a] = false
		size[b] += size[a]
		merges = append(merges, rawMerge{a, b, h, size[b], len(merges)})
	}
	return merges, nil
}

// reciprocalPair grows the chain by nearest neighbours until its last two
// slots are each other's nearest, pops them and returns them (a < b).
func reciprocalPair(dist condensed, chain []int, active []bool) ([]int, int, int, error) {
	for {
		a := chain[len(chain)-1]
		prev := -1
		if len(chain) > 1 {
			prev = chain[len(chain)-2]
		}
		bd := math.Inf(1)
		b := -1
		if prev >= 0 {
			b, bd = prev, dist.d[dist.at(a, prev)]
		}
		for k := 0; k < dist.n; k++ {
			if k == a || !active[k] {
				continue
			}
			if d := dist.d[dist.at(a, k)]; d < bd {
				b, bd = k, d
			}
		}
		if b < 0 {
			return chain, 0, 0, fmt.Errorf("cluster: hierarchical clustering: no finite distance from row %d (values too large or not finite)", a)
		}
		if b == prev {
			return chain[:len(chain)-2], min(a, prev), max(a, prev), nil
		}
		chain = append(chain, b)
	}
}

// scipyMerges sorts the merges by height (stably) and renumbers them in
// SciPy's convention: rows 0..n−1, merge i creates cluster n+i.
func scipyMerges(merges []rawMerge, n int) []Merge {
	sort.SliceStable(merges, func(i, j int) bool { return merges[i].h < merges[j].h })
	parent := make([]int, n)
	id := make([]int, n)
	for i := range parent {
		parent[i], id[i] = i, i
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	out := make([]Merge, len(merges))
	for i, r := range merges {
		ra, rb := find(r.a), find(r.b)
		ia, ib := id[ra], id[rb]
		parent[ra] = rb
		id[rb] = n + i
		out[i] = Merge{A: min(ia, ib), B: max(ia, ib), Height: r.h, Size: r.size}
	}
	return out
}

// Cut returns the labels of the n rows when the dendrogram is cut into k
// clusters: the first n−k merges are applied. Labels are numbered by first
// appearance (row 0 is in cluster 0); k is clamped to [1, n].
func Cut(merges []Merge, n, k int) []int {
	k = max(1, min(k, n))
	parent := make([]int, 2*n)
	for i := range parent {
		parent[i] = i
	}
	find := func(x int) int {
		for parent[x] != x {
			x = parent[x]
		}
		return x
	}
	for i := 0; i < n-k && i < len(merges); i++ {
		parent[merges[i].A] = n + i
		parent[merges[i].B] = n + i
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = find(i)
	}
	relabel(labels, nil)
	return labels
}
