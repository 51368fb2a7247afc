package cube

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"path"
)

// member is where one archive member's bytes are in the .cubex file.
type member struct {
	off, size int64
}

// offsetReader is an io.ReadSeeker over the file that knows its offset, so
// that the position of each member's data is known after tar's Next.
type offsetReader struct {
	f   *os.File
	off int64
}

func (r *offsetReader) Read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	r.off += int64(n)
	return n, err
}

func (r *offsetReader) Seek(offset int64, whence int) (int64, error) {
	n, err := r.f.Seek(offset, whence)
	if err == nil {
		r.off = n
	}
	return n, err
}

// members lists the regular files of the tar archive f with their data's
// position. Only tar headers are read; members' data is skipped.
func members(f *os.File, name string) (map[string]member, error) {
	or := &offsetReader{f: f}
	tr := tar.NewReader(or)
	out := map[string]member{}
	for {
		start := or.off
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				err = errors.New("archive ends inside a member's header or data")
			}
			return nil, errorf(name, "", start, "not a readable tar archive (a .cubex is one): %v", err)
		}
		// archive/tar reports the legacy regular-file flag ('\x00') as
		// TypeReg, so one test covers both.
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if h.Size < 0 {
			return nil, errorf(name, "", start, "member %q has a negative size", h.Name)
		}
		out[path.Clean(h.Name)] = member{off: or.off, size: h.Size}
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	for n, m := range out {
		if m.off+m.size > st.Size() {
			return nil, &Error{Path: name, Member: n, Offset: st.Size() - m.off, Err: ErrTruncated}
		}
	}
	return out, nil
}
