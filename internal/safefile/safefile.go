// Package safefile opens the files of a trial without trusting them: only
// regular files are read (a named pipe, a device or a socket named like a
// profile gives an error naming it instead of blocking or reading without
// end), a symbolic link inside a trial folder must point into that folder,
// and whole-file reads are capped.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotRegular is wrapped by a *KindError.
var ErrNotRegular = errors.New("not a regular file")

// ErrOutside is wrapped by an *OutsideError.
var ErrOutside = errors.New("outside the trial folder")

// ErrTooLarge is wrapped by a *SizeError.
var ErrTooLarge = errors.New("file too large")

// KindError is the error of a path that is not a regular file.
type KindError struct {
	// Path is the file as named.
	Path string
	// Mode is the file's mode (its type bits say what it is).
	Mode fs.FileMode
}

// Error says what the file is: "PATH: a named pipe (FIFO), not a regular
// file: not read".
func (e *KindError) Error() string {
	return fmt.Sprintf("%s: %s, not a regular file: not read", e.Path, Kind(e.Mode))
}

// Unwrap returns ErrNotRegular.
func (e *KindError) Unwrap() error { return ErrNotRegular }

// OutsideError is the error of a symbolic link in a trial folder that
// points out of the folder.
type OutsideError struct {
	// Path is the link, Target what it says, Root the trial folder.
	Path, Target, Root string
}

// Error names the link, its target and the folder.
func (e *OutsideError) Error() string {
	return fmt.Sprintf("%s: a symbolic link to %q, outside the trial folder %s: not read", e.Path, e.Target, e.Root)
}

// Unwrap returns ErrOutside.
func (e *OutsideError) Unwrap() error { return ErrOutside }

// SizeError is the error of a file larger than a reader accepts.
type SizeError struct {
	Path        string
	Size, Limit int64
}

// Error names the file, its size and the limit, in bytes.
func (e *SizeError) Error() string {
	return fmt.Sprintf("%s: %d bytes, more than the %d bytes this reader accepts for one file", e.Path, e.Size, e.Limit)
}

// Unwrap returns ErrTooLarge.
func (e *SizeError) Unwrap() error { return ErrTooLarge }

// Kind names the type of a file mode in words.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file (mode " + m.String() + ")"
}

// Open opens path for reading if it is a regular file (following symbolic
// links) and returns a *KindError otherwise. The file is opened without
// blocking (a FIFO with no writer does not hang the open) and its type is
// checked on the opened descriptor, so a file swapped after a check cannot
// slip through.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &KindError{Path: path, Mode: st.Mode()}
	}
	return f, nil
}

// CheckInside returns an *OutsideError when path is a symbolic link whose
// target lies outside the folder root (both resolved through every link),
// and nil for a file that is not a link or a link that stays inside.
func CheckInside(root, path string) error {
	lst, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if lst.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	text, _ := os.Readlink(path)
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	top, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	if target, err = filepath.Abs(target); err != nil {
		return err
	}
	if top, err = filepath.Abs(top); err != nil {
		return err
	}
	rel, err := filepath.Rel(top, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return &OutsideError{Path: path, Target: text, Root: root}
	}
	return nil
}

// OpenIn opens path, a file of the trial folder root: CheckInside, then
// Open.
func OpenIn(root, path string) (*os.File, error) {
	if err := CheckInside(root, path); err != nil {
		return nil, err
	}
	return Open(path)
}

// ReadFileIn reads the whole of path, a file of the trial folder root (root
// "" skips the link check), refusing a file of more than limit bytes with
// a *SizeError before reading it.
func ReadFileIn(root, path string, limit int64) ([]byte, error) {
	var f *os.File
	var err error
	if root != "" {
		f, err = OpenIn(root, path)
	} else {
		f, err = Open(path)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, &SizeError{Path: path, Size: st.Size(), Limit: limit}
	}
	// One byte more than the size, so a file that grew meanwhile is seen.
	buf := make([]byte, st.Size()+1)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if int64(n) > st.Size() {
		return nil, fmt.Errorf("%s: the file grew while it was read", path)
	}
	return buf[:n], nil
}
