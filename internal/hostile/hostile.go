// Package hostile makes hostile input files for tests: compression bombs
// that inflate to gigabytes from a few megabytes, with an honest or a
// forged gzip trailer, without spending the time to compress gigabytes.
package hostile

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
)

// chunk is the run of zero bytes compressed once and repeated.
const chunk = 1 << 20

// GzipBomb returns a gzip file that decompresses to prefix followed by
// zeros×1 MiB bytes fill (zeros at least 2). Its trailer states the true size modulo 2³²
// (with the true CRC-32) unless stated is not nil, in which case it states
// *stated. The deflate stream is a block of 1 MiB of fill, flushed to a
// byte boundary and repeated: each copy refers only to fill bytes within
// the 32 KiB window, so the repetition is a valid stream.
func GzipBomb(prefix []byte, fill byte, zeros int, stated *uint32) []byte {
	zeros = max(zeros, 2)
	var out bytes.Buffer
	w, _ := flate.NewWriter(&out, flate.BestCompression)
	zero := bytes.Repeat([]byte{fill}, chunk)
	// The prefix and two runs of zeros, to reach the steady state where a
	// block refers to nothing but zeros.
	w.Write(prefix) //nolint:errcheck // bytes.Buffer
	w.Write(zero)   //nolint:errcheck // bytes.Buffer
	w.Write(zero)   //nolint:errcheck // bytes.Buffer
	w.Flush()       //nolint:errcheck // bytes.Buffer
	head := bytes.Clone(out.Bytes())
	out.Reset()
	w.Write(zero) //nolint:errcheck // bytes.Buffer
	w.Flush()     //nolint:errcheck // bytes.Buffer
	block := bytes.Clone(out.Bytes())
	out.Reset()
	w.Close() //nolint:errcheck // bytes.Buffer
	tail := bytes.Clone(out.Bytes())

	var gz bytes.Buffer
	gz.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	gz.Write(head)
	crc := crc32.ChecksumIEEE(prefix)
	for i := 0; i < zeros; i++ {
		if i >= 2 {
			gz.Write(block)
		}
		crc = crc32.Update(crc, crc32.IEEETable, zero)
	}
	gz.Write(tail)
	size := uint32(len(prefix) + zeros*chunk)
	if stated != nil {
		size = *stated
	}
	binary.Write(&gz, binary.LittleEndian, crc)  //nolint:errcheck // bytes.Buffer
	binary.Write(&gz, binary.LittleEndian, size) //nolint:errcheck // bytes.Buffer
	return gz.Bytes()
}
