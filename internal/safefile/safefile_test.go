package safefile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenKinds opens a regular file (accepted), a FIFO without a writer
// (refused at once, not blocked), /dev/null (a character device) and a
// directory (refused).
func TestOpenKinds(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "f")
	if err := os.WriteFile(reg, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(reg)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO:", err)
	}
	for path, kind := range map[string]string{fifo: "a named pipe (FIFO)", "/dev/null": "a character device", dir: "a directory"} {
		_, err := Open(path)
		var ke *KindError
		if !errors.As(err, &ke) || err.Error() != path+": "+kind+", not a regular file: not read" {
			t.Errorf("Open(%s) = %v", path, err)
		}
	}
}

// TestCheckInside checks links: to a file in a subfolder (inside), to ../x
// and to an absolute path outside (refused, naming the link's text), and a
// plain file.
func TestCheckInside(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "trial")
	for _, p := range []string{filepath.Join(root, "sub", "a"), filepath.Join(top, "x")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{"in": "sub/a", "up": "../x", "abs": filepath.Join(top, "x")}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	for name, ok := range map[string]bool{"in": true, "up": false, "abs": false, "sub/a": true} {
		err := CheckInside(root, filepath.Join(root, name))
		if ok != (err == nil) {
			t.Errorf("%s: %v", name, err)
		}
		if !ok && (!errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), `a symbolic link to "`+links[name]+`"`)) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestReadFileInLimit reads a 10-byte file with limits 10 (read whole) and
// 9 (refused before reading, with the size and the limit).
func TestReadFileInLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFileIn("", p, 10); err != nil || string(b) != "0123456789" {
		t.Errorf("limit 10: %q, %v", b, err)
	}
	_, err := ReadFileIn("", p, 9)
	if !errors.Is(err, ErrTooLarge) || err.Error() != p+": 10 bytes, more than the 9 bytes this reader accepts for one file" {
		t.Errorf("limit 9: %v", err)
	}
}

// TestCap reads exactly the cap (no error) and one byte more (a CapError).
func TestCap(t *testing.T) {
	b, err := io.ReadAll(Cap(bytes.NewReader(make([]byte, 100)), 100, "test"))
	if err != nil || len(b) != 100 {
		t.Errorf("100 of 100: %d bytes, %v", len(b), err)
	}
	b, err = io.ReadAll(Cap(bytes.NewReader(make([]byte, 101)), 100, "test"))
	var ce *CapError
	if !errors.As(err, &ce) || len(b) != 100 || err.Error() != "decompresses to more than 100 bytes (test)" {
		t.Errorf("101 of 100: %d bytes, %v", len(b), err)
	}
}
