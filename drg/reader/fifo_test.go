package reader

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// TestFIFOForEveryFormat: a FIFO given to any reader, forced by format or
// detected, is refused as not a regular file instead of blocking forever.
func TestFIFOForEveryFormat(t *testing.T) {
	dir := t.TempDir()
	for _, format := range append([]string{""}, Formats...) {
		path := filepath.Join(dir, "fifo-"+format)
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		done := make(chan error, 1)
		go func() { _, err := Read(path, format); done <- err }()
		select {
		case err := <-done:
			// profile wants a profile.N.C.T name and hpctoolkit a database
			// folder: they refuse the path before opening it.
			early := format == "profile" || format == "hpctoolkit"
			if err == nil || (!early && !errors.Is(err, safefile.ErrNotRegular)) {
				t.Errorf("format %q: error %v, want a not-a-regular-file error", format, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("format %q: Read of a FIFO still blocks after 10 s", format)
		}
	}
}
