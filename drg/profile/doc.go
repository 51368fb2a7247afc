// Package profile reads TAU's text profiles: a directory of profile.N.C.T
// files (one per thread, one metric), or of MULTI__<metric>/ folders (one
// metric each, merged into one trial), as TAU's measurement library writes
// them and as ParaProf re-writes them.
//
// The grammar of one file (see shared/formats/tau-profile.md):
//
//	23 templated_functions_MULTI_TIME
//	# Name Calls Subrs Excl Incl ProfileCalls # <metadata>...</metadata>
//	"NAME" calls subrs excl incl 0 GROUP="G1|G2"
//	0 aggregates
//	2 userevents
//	# eventname numevents max min mean sumsqr
//	"EVENT" numevents max min mean sumsqr
//
// Files are parsed in parallel and merged, in file order, into one
// drg.Builder. Spawned children (spawn-N/ folders, written by
// MPI_Comm_spawn) are separate trials and are not read with their parent.
package profile
