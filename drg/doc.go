// Package drg is the in-memory model of one TAU trial: the dynamic code
// region call graph (DRG) of the SCALEA paper, shaped after TAUdb's tables.
//
// A Trial holds its threads (TAUdb thread), metrics (metric), regions
// (timer), call-graph nodes (timer_callpath), counters from user events
// (counter) and metadata (primary_metadata and secondary_metadata). Values
// are dense and columnar: for every metric the inclusive and exclusive values
// are []float64 indexed node*len(Threads)+thread, calls and subroutines
// likewise, and a presence bitmap tells "not executed on this thread" apart
// from zero. A trial too sparse for that layout (see CheckDensity) may be
// stored sparsely instead (Trial.Sparse, see SparseValues) when its reader
// allows it (Builder.Sparse); Trial.Col, Has and RowLen read the values of
// either layout, and code that indexes the dense columns calls
// Trial.MakeDense first.
//
// Every region has exactly one flat node (a node with no parent), which holds
// the region's values summed over all of its calling contexts; a callpath
// entry "A => B" of TAU is a node of region B whose parent is the node of "A".
// The flat view (Trial.Flat) therefore never double counts, and the tree view
// (Trial.Tree) states whether the callpaths form a complete tree rooted at
// the main region or only depth-limited paths.
//
// Readers of TAU's file formats live in the sub-packages profile (profile.N.C.T
// directories), ppk (ParaProf packed profiles) and snapshot (merged and
// snapshot XML); package reader picks one from a path. They all build a trial
// through a Builder.
package drg
