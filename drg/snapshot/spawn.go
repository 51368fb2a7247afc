package snapshot

import (
	"os"
	"path/filepath"
	"strings"
)

// Spawned returns the spawn-N subfolders of dir that hold snapshot.N.C.T
// files of processes started with MPI_Comm_spawn; each is a trial of its
// own, which reading dir does not include.
func Spawned(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), "spawn-") {
			sub := filepath.Join(dir, e.Name())
			if _, err := listSnapshots(sub); err == nil {
				out = append(out, sub)
			}
		}
	}
	return out
}
