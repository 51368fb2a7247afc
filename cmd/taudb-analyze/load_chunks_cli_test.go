package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadChunked loads one generated profile folder into a PostgreSQL
// database twice, whole (--chunk-threads -1) and 7 threads at a time: the
// two trials are described alike and give the same imbalance table, the
// chunked one says how it was read, and deleting it leaves the database
// consistent. On SQLite the flag changes nothing: the trial is read whole.
func TestLoadChunked(t *testing.T) {
	dir := t.TempDir()
	ok(t, nil, "synth", "--out", dir, "--processes", "40", "--regions", "30", "--metrics", "2", "--depth", "2", "--seed", "5")
	path := filepath.Join(dir, "p40")
	databases(t, func(t *testing.T, url string) {
		db := []string{"--db", url}
		ok(t, nil, append(db, "db", "init")...)
		whole := ok(t, nil, append(db, "load", "-n", "whole", "--chunk-threads", "-1", path)...)
		chunked := ok(t, nil, append(db, "--verbose", "load", "-n", "chunked", "--chunk-threads", "7", path)...)
		said := strings.Contains(chunked.stderr, "reading "+path+" 7 threads at a time (40 threads)")
		if pg := strings.HasPrefix(url, "postgres"); said != pg {
			t.Errorf("chunked read said %v on %s:\n%s", said, url, chunked.stderr)
		}
		line := func(s string) string {
			_, rest, _ := strings.Cut(s, "as trial ")
			_, rest, _ = strings.Cut(rest, ": ")
			return strings.TrimSpace(strings.SplitN(rest, "\n", 2)[0])
		}
		if line(whole.stderr) != line(chunked.stderr) || !strings.Contains(line(whole.stderr), "40 threads, 2 metrics") {
			t.Errorf("described otherwise:\n%s\n%s", whole.stderr, chunked.stderr)
		}
		for _, args := range [][]string{{"imbalance", "--no-save", "--format", "csv"}, {"imbalance", "--no-save", "--format", "csv", "--callpath", "--inclusive"}} {
			a := ok(t, nil, append(append(db, args...), "--trial", "whole")...).stdout
			b := ok(t, nil, append(append(db, args...), "--trial", "chunked")...).stdout
			if a != b || len(a) < 500 {
				t.Errorf("%v differs between the whole and the chunked trial:\n%s\n---\n%s", args, clipTo(a, 600), clipTo(b, 600))
			}
		}
		ok(t, nil, append(db, "delete", "--trial", "chunked")...)
		if r := ok(t, nil, append(db, "db", "check")...); !strings.Contains(r.stdout, "consistent") {
			t.Errorf("db check after the delete: %s", r.stdout)
		}
	})
}
