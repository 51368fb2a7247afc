// Package otherfmt writes generated profiles in the formats of other
// profilers (Score-P CUBE4 .cubex, an HPCToolkit experiment.xml database,
// Caliper .cali), with values known from their parameters, so that the
// readers of drg/cube, drg/hpctoolkit and drg/caliper can be measured on
// inputs of any size against the TAU profile reader (the benchmark of this
// package and scripts/benchtool's parse rows).
//
// Every generator builds the same shape of calling context tree: node 0 is
// the root and node i > 0 is a child of node (i-1)/10, so a tree of n
// nodes has about n/10 inner nodes of 10 children each. The exclusive
// time of node i on thread (location, rank) l is Excl(i, l) seconds;
// inclusive values are the sums over subtrees.
package otherfmt

// Excl is the exclusive time, in seconds, that the generators give node i
// on thread l: 1 plus a fraction below 1 that varies with i and l, so that
// values are not all alike (and zlib does not shrink them to nothing).
func Excl(i, l int) float64 {
	h := uint64(i)*0x9E3779B97F4A7C15 ^ uint64(l)*0xC2B2AE3D27D4EB4F
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 32
	return 1 + float64(h>>11)/(1<<53)
}

// Visits is the visit count the generators give node i on thread l.
func Visits(i, l int) uint64 { return uint64(1 + (i+l)%3) }

// parent is the parent of node i > 0 in the generated trees.
func parent(i int) int { return (i - 1) / 10 }

// inclusive returns the inclusive time of every node on thread l of an
// n-node tree: Excl summed over each subtree (children have larger
// indexes than their parent, so one backward pass adds them up).
func inclusive(n, l int, dst []float64) []float64 {
	dst = dst[:0]
	for i := 0; i < n; i++ {
		dst = append(dst, Excl(i, l))
	}
	for i := n - 1; i > 0; i-- {
		dst[parent(i)] += dst[i]
	}
	return dst
}
