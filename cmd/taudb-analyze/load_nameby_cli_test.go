package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadNameByP: three ppk files at p = 1, 2 and 4 renamed so that their
// paths sort in the opposite order (c.ppk holds p = 1) are numbered by path
// by default (run-1 = a.ppk, 4 processes) and by their own process count
// with --name-by p (mm-p1, mm-p2, mm-p4, each with its number of threads);
// two trials of one p are refused and nothing is stored; a bad --name-by
// exits 2.
func TestLoadNameByP(t *testing.T) {
	src := filepath.Join(t.TempDir(), "gen")
	ok(t, nil, "synth", "--out", src, "--file-format", "ppk", "--processes", "1,2,4", "--regions", "4", "--depth", "1")
	dir := t.TempDir()
	for from, to := range map[string]string{"p1.ppk": "c.ppk", "p2.ppk": "b.ppk", "p4.ppk": "a.ppk"} {
		if err := os.Rename(filepath.Join(src, from), filepath.Join(dir, to)); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{filepath.Join(dir, "c.ppk"), filepath.Join(dir, "a.ppk"), filepath.Join(dir, "b.ppk")}
	url := "sqlite:" + filepath.Join(t.TempDir(), "t.db")
	byPath := loadedNames(t, ok(t, nil, append([]string{"--db", url, "--format", "json", "load", "-n", "run"}, paths...)...).stdout)
	if byPath["run-1"] != 4 || byPath["run-3"] != 1 {
		t.Errorf("by path: %v; want run-1 = a.ppk (4 threads), run-3 = c.ppk (1)", byPath)
	}
	byP := loadedNames(t, ok(t, nil, append([]string{"--db", url, "--format", "json", "load", "-n", "mm", "--name-by", "p"}, paths...)...).stdout)
	if len(byP) != 3 || byP["mm-p1"] != 1 || byP["mm-p2"] != 2 || byP["mm-p4"] != 4 {
		t.Errorf("--name-by p: %v; want mm-p1, mm-p2, mm-p4 with 1, 2, 4 threads", byP)
	}
	r := cli(t, nil, "--db", url, "load", "-n", "dup", "--name-by", "p", paths[0], paths[0])
	if r.code != 1 || !strings.Contains(r.stderr, "both have p = 1") || !strings.Contains(r.stderr, "nothing of the 2 paths was loaded") {
		t.Errorf("two trials of p = 1: exit %d, %q", r.code, r.stderr)
	}
	if trials := ok(t, nil, "--db", url, "trials").stdout; strings.Contains(trials, "dup-") {
		t.Errorf("a refused load left trials: %s", trials)
	}
	fails(t, 2, "--name-by", "--db", url, "load", "-n", "x", "--name-by", "size", paths[0], paths[1])
}

// loadedNames maps the names load printed (--format json) to their
// threads.
func loadedNames(t *testing.T, out string) map[string]int {
	t.Helper()
	var l []loaded
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatalf("load printed %q: %v", out, err)
	}
	m := map[string]int{}
	for _, x := range l {
		m[x.Name] = x.Threads
	}
	return m
}
