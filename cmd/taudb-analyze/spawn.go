package main

import (
	"path/filepath"

	"github.com/taudb-analyze/taudb-analyze/drg/reader"
)

// withSpawned adds after each path its spawn-N subfolders (processes
// started with MPI_Comm_spawn, see reader.Spawned), each a trial of its
// own named after its parent's name: NAME-spawn-1, or, when the parent
// has no name given, the parent folder's name and -spawn-1.
func withSpawned(paths, names []string) ([]string, []string) {
	var ps, ns []string
	for i, p := range paths {
		ps, ns = append(ps, p), append(ns, names[i])
		for _, s := range reader.Spawned(p) {
			base := names[i]
			if base == "" {
				base = filepath.Base(filepath.Clean(p))
			}
			ps, ns = append(ps, s), append(ns, base+"-"+filepath.Base(s))
		}
	}
	return ps, ns
}
