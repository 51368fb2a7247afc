package reader

import (
	"github.com/taudb-analyze/taudb-analyze/drg/profile"
	"github.com/taudb-analyze/taudb-analyze/drg/snapshot"
)

// Spawned returns the spawn-N subfolders of dir holding the profiles or
// snapshots of processes started with MPI_Comm_spawn, in name order: each
// is a trial of its own, which reading dir leaves out (with a warning).
func Spawned(dir string) []string {
	out := profile.Spawned(dir)
	seen := map[string]bool{}
	for _, s := range out {
		seen[s] = true
	}
	for _, s := range snapshot.Spawned(dir) {
		if !seen[s] {
			out = append(out, s)
		}
	}
	return out
}
