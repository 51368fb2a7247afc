package reader

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSpawnedSnapshots copies a snapshot into a folder and its spawn-1/:
// Spawned names spawn-1 and reading the folder warns about it.
func TestSpawnedSnapshots(t *testing.T) {
	snap, err := os.ReadFile(filepath.Join("..", "..", "testdata", "snapshots", "snapshot.0.0.0"))
	if err != nil {
		t.Skip("no snapshot:", err)
	}
	dir := t.TempDir()
	spawn := filepath.Join(dir, "spawn-1")
	if err := os.MkdirAll(spawn, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, spawn} {
		if err := os.WriteFile(filepath.Join(d, "snapshot.0.0.0"), snap, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := Spawned(dir); len(got) != 1 || got[0] != spawn {
		t.Errorf("Spawned = %v, want [%s]", got, spawn)
	}
	tr, err := Read(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(tr.Warnings, "\n"); !strings.Contains(w, spawn+" holds processes started by MPI_Comm_spawn") {
		t.Errorf("warnings: %s", w)
	}
}
