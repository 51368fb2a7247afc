package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSpawnFolders loads a folder whose spawn-1/ holds the profiles of two
// spawned processes: without --spawn the parent is loaded (1 thread) and
// the warning names spawn-1; with --spawn, spawn-1 becomes trial
// "app-spawn-1" with its 2 threads and the timer only it has.
func TestSpawnFolders(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	for rel, content := range map[string]string{
		"profile.0.0.0":         goodProfile,
		"spawn-1/profile.0.0.0": edit(`"work"`, `"child"`),
		"spawn-1/profile.1.0.0": edit(`"work"`, `"child"`),
	} {
		p := filepath.Join(dir, rel)
		mkdir(t, filepath.Dir(p))
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := "sqlite:" + filepath.Join(t.TempDir(), "s.db")
	r := ok(t, nil, "--db", db, "load", "-n", "plain", dir)
	want := "warning: " + dir + ": " + filepath.Join(dir, "spawn-1") + " holds processes started by MPI_Comm_spawn: a separate trial, not read with this one (load --spawn loads it)"
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q lacks %q", r.stderr, want)
	}
	r = ok(t, nil, "--db", db, "load", "--spawn", "-n", "app", dir)
	if strings.Fields(r.stdout)[0] != "2" || strings.Fields(r.stdout)[1] != "3" {
		t.Errorf("ids printed: %q, want 2 and 3", r.stdout)
	}
	r = ok(t, nil, "--db", db, "--format", "csv", "trials")
	if !strings.Contains(r.stdout, "app-spawn-1") {
		t.Errorf("trials:\n%s", r.stdout)
	}
	r = ok(t, nil, "--db", db, "--format", "csv", "regions", "--trial", "app-spawn-1", "--no-save")
	if !strings.Contains(r.stdout, "child") || strings.Contains(r.stdout, "work") {
		t.Errorf("regions of app-spawn-1:\n%s", r.stdout)
	}
	r = ok(t, nil, "--db", db, "--format", "json", "inspect", filepath.Join(dir, "spawn-1"))
	if !strings.Contains(r.stdout, `"threads": 2`) {
		t.Errorf("inspect spawn-1:\n%s", clipTo(r.stdout, 400))
	}
}
