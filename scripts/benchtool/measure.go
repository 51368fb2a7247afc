package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Measured is what a child process cost.
type Measured struct {
	// Wall is the wall-clock time from start to exit.
	Wall time.Duration
	// PeakMB is the child's peak resident set size (getrusage ru_maxrss,
	// KiB on Linux) in MB (10^6 bytes).
	PeakMB float64
	// Stdout is what the child printed on standard output.
	Stdout []byte
}

// activeLauncher, when set, runs the children of Run (see launchCommand).
var activeLauncher *launcher

// Run runs name with args as a child process (through the launcher when one
// is running), discarding its standard output unless keep is set, and
// returns its wall time and peak memory. The child's standard error is
// returned in the error when it fails.
func Run(ctx context.Context, keep bool, name string, args ...string) (Measured, error) {
	if activeLauncher != nil {
		if err := ctx.Err(); err != nil {
			return Measured{}, err
		}
		return activeLauncher.run(name, keep, args)
	}
	return runDirect(ctx, keep, name, args...)
}

// runDirect is Run without the launcher.
func runDirect(ctx context.Context, keep bool, name string, args ...string) (Measured, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var out, errb bytes.Buffer
	if keep {
		cmd.Stdout = &out
	} else {
		// The child writes to /dev/null itself, as `cmd > /dev/null` does.
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return Measured{}, fmt.Errorf("open %s: %w", os.DevNull, err)
		}
		defer null.Close()
		cmd.Stdout = null
	}
	cmd.Stderr = &errb
	start := time.Now()
	err := cmd.Run()
	m := Measured{Wall: time.Since(start), Stdout: out.Bytes()}
	if err != nil {
		return m, fmt.Errorf("run %s %s: %w\n%s", name, strings.Join(args, " "), err, tail(errb.String(), 2000))
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		m.PeakMB = float64(ru.Maxrss) * 1024 / 1e6
	}
	return m, nil
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// catSeconds times `cat files... > /dev/null` as a child process, after one
// untimed run that brings the files into the page cache.
func catSeconds(ctx context.Context, files []string) (float64, error) {
	if _, err := Run(ctx, false, "cat", files...); err != nil {
		return 0, fmt.Errorf("warm the page cache: %w", err)
	}
	m, err := Run(ctx, false, "cat", files...)
	if err != nil {
		return 0, err
	}
	return m.Wall.Seconds(), nil
}
