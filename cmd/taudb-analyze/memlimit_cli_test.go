package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// memLimitKB is the address-space limit of TestHostileFilesUnderMemoryLimit:
// 1 GiB, in the KiB that ulimit -v takes.
const memLimitKB = 1 << 20

// TestHostileFilesUnderMemoryLimit runs every case of the bad-input
// catalogue that writes files (FIFOs, links to devices and secrets,
// compression bombs, deep and huge XML, 8,000 sparse ranks, ...) with the
// binary's address space limited to 1 GiB (ulimit -v) and a 30 s timeout:
// each must finish in time with the catalogue's exit code and exact message
// (which names the file), not be killed or hang. It logs each case's time
// and peak resident memory. Go reserves several hundred MiB of address
// space for its own bookkeeping, so the heap has about 300 MiB of the
// limit.
func TestHostileFilesUnderMemoryLimit(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to set the limit")
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	mkdir(t, good)
	if err := os.WriteFile(filepath.Join(good, "profile.0.0.0"), []byte(goodProfile), 0o644); err != nil {
		t.Fatal(err)
	}
	db := "sqlite:" + filepath.Join(dir, "t.db")
	ok(t, nil, "--db", db, "load", "-n", "kept", good)
	for _, c := range badInputs(t) {
		if c.files == nil && c.setup == nil {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			work := t.TempDir()
			for rel, content := range c.files {
				p := filepath.Join(work, rel)
				mkdir(t, filepath.Dir(p))
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if c.setup != nil {
				c.setup(t, work)
			}
			args := []string{"--db", db}
			for _, a := range c.args {
				args = append(args, strings.ReplaceAll(a, "DIR", work))
			}
			code, _, stderr, took, rss := limitedRun(t, args)
			stderr = strings.TrimSuffix(strings.ReplaceAll(stderr, work, "DIR"), "\n")
			t.Logf("%v, peak RSS %d MiB", took.Round(time.Millisecond), rss>>10)
			if code != c.code || stderr != c.stderr {
				t.Errorf("exit %d in %v, stderr\n%s\nwant exit %d and\n%s", code, took, clipTo(stderr, 600), c.code, clipTo(c.stderr, 600))
			}
		})
	}
}

// limitedRun runs the binary with args under the 1 GiB limit and a 30 s
// timeout; it returns the exit code (-1 when killed), standard output and
// error, the time taken and the peak resident memory in KiB.
func limitedRun(t *testing.T, args []string) (code int, stdout, stderr string, took time.Duration, rssKB int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sh := append([]string{"-c", `ulimit -v ` + strconv.Itoa(memLimitKB) + ` && exec "$0" "$@"`, binary}, args...)
	cmd := exec.CommandContext(ctx, "sh", sh...)
	// glibc gives each thread that calls malloc (the binary links libc)
	// an arena of 64 MiB of address space, reserved, not used: with a
	// handful of threads that alone would fill the limit. One arena.
	cmd.Env = append(os.Environ(), "MALLOC_ARENA_MAX=1")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	start := time.Now()
	err := cmd.Run()
	took = time.Since(start)
	code = 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run: %v", err)
	}
	if ctx.Err() != nil {
		t.Errorf("still running after 30 s: killed")
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rssKB = ru.Maxrss
	}
	return code, o.String(), e.String(), took, rssKB
}
