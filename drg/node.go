package drg

// Node is a call-graph node (TAUdb timer_callpath): a region in one calling
// context. A node with no parent is the region's flat node; a node made from
// TAU's callpath name "A => B" is a node of region B whose parent is the
// node named "A".
type Node struct {
	// Name is the canonical full name: the region name for a flat node,
	// the whole callpath ("A => B => C") otherwise.
	Name string
	// Region is the index of the node's region in Trial.Regions (the leaf of
	// the callpath; a throttled region "f [THROTTLED]" for a leaf "f").
	Region int
	// Parent is the index of the parent node, or -1 for a flat node.
	Parent int
	// Depth is 0 for a flat node and the number of " => " in Name otherwise.
	Depth int
	// Derived is true for callpath nodes ParaProf derived from others
	// (group TAU_CALLPATH_DERIVED); TAU's loader never stores them.
	Derived bool
}

// IsFlat reports whether n is a flat node (no parent).
func (n *Node) IsFlat() bool { return n.Parent < 0 }
