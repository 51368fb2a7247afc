// Package cube reads Score-P's CUBE4 profiles (.cubex) into a trial.
//
// A .cubex is a tar archive. anchor.xml describes the metrics, the regions,
// the call tree (nested <cnode id calleeId> elements) and the system tree
// (location groups, that is processes, holding locations, that is
// threads); for each metric with stored values, N.index lists the cnode id
// of each data row and N.data holds one value per (row, location), after
// the magic "CUBEX.DATA", or zlib-compressed in segments after
// "ZCUBEX.DATA". The index's leading int32 1 gives the byte order of both.
// Cnodes an index does not list (a sparse metric) hold zeros.
//
// Locations become threads: node = the rank of the location group,
// thread = the rank of the location (location groups sharing a rank get
// contexts 0, 1, ...). Cnodes become callpaths named by their regions'
// names (two sibling cnodes of regions with the same name are one callpath,
// as in Hatchet); a region's Score-P paradigm becomes its TAU group (mpi is
// MPI, openmp is OpenMP). A metric of type EXCLUSIVE stores exclusive
// values, whose inclusive values add up the subtree; an INCLUSIVE one
// stores inclusive values, whose exclusive values subtract the children's
// (negative results are set to 0 with a warning, as TAU's loader does).
// The visits metric becomes the calls (and, from the children, the
// subroutines) of each node. Score-P's "time" becomes TIME, in
// microseconds, as every time metric with unit sec or ms is scaled.
// Metrics without data members (CubePL-derived ones) are not read;
// MINDOUBLE, MAXDOUBLE and other non-additive value types are left out with
// a warning. CUBE attributes become trial metadata "CUBE <key>".
//
// Only tar headers are read to find the members; anchor.xml is parsed as
// a stream; each metric's data is read row by row into the trial's value
// columns. The call tree × locations of anchor.xml may not promise more
// values than 16 per byte of data members, so that a small file cannot make
// the reader allocate without bound, and a compressed member never inflates
// more bytes than its index promises. Bad input gives an *Error naming the
// file, the member and the byte offset.
package cube
