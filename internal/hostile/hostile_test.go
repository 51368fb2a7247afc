package hostile

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

// TestGzipBomb inflates a small bomb and checks its size, its content and
// that the gzip reader accepts its trailer (CRC and size).
func TestGzipBomb(t *testing.T) {
	b := GzipBomb([]byte("head\x00"), 0, 5, nil)
	if len(b) > 64<<10 {
		t.Errorf("bomb of 5 MiB is %d bytes compressed", len(b))
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 5+5<<20 || !bytes.HasPrefix(out, []byte("head\x00")) || bytes.Count(out, []byte{0}) != 1+5<<20 {
		t.Errorf("inflated to %d bytes, %d zeros", len(out), bytes.Count(out, []byte{0}))
	}
}
