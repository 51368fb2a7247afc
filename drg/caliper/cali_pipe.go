package caliper

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
)

// chunkBytes is the size of the blocks of whole lines that decodeCali's
// goroutines split and parse in parallel.
const chunkBytes = 256 << 10

// splitLine is one line of a .cali file, split and with its numbers parsed.
type splitLine struct {
	fields []field
	// nums and numOK hold the data values of a ctx record parsed as
	// numbers (numOK false where one is not a number); nil for other
	// records.
	nums  []float64
	numOK []bool
	err   error // the line cannot be split, or is the last without newline
	blank bool
}

// lineBatch is the lines of one block. err, when not nil, is what ended the
// input after them: a read error or a line longer than MaxLine.
type lineBatch struct {
	lines []splitLine
	err   error
}

// errNoNewline is the error of a last line without its newline.
var errNoNewline = errors.New("the file ends inside a record (no final newline): truncated?")

// readBatches cuts r into blocks of whole lines, which GOMAXPROCS
// goroutines split and parse (splitBlock) while the caller applies the
// records: out receives each block's result channel in file order. It
// stops after a block that carries an error, at the end of the input, or
// when done is closed.
func readBatches(r io.Reader, out chan<- chan lineBatch, done <-chan struct{}) {
	defer close(out)
	type job struct {
		block []byte
		last  bool // the input ends inside this block's last line
		res   chan lineBatch
	}
	jobs := make(chan job)
	defer close(jobs)
	for range runtime.GOMAXPROCS(0) {
		go func() {
			for j := range jobs {
				j.res <- splitBlock(j.block, j.last)
			}
		}()
	}
	var carry []byte
	for {
		block, rest, last, err := nextBlock(r, carry)
		carry = rest
		res := make(chan lineBatch, 1)
		select {
		case out <- res:
		case <-done:
			return
		}
		if err != nil && err != io.EOF {
			res <- lineBatch{lines: splitBlock(block, false).lines, err: err}
			return
		}
		select {
		case jobs <- job{block, last, res}:
		case <-done:
			return
		}
		if err == io.EOF {
			return
		}
	}
}

// nextBlock reads on from carry (the start of a line read before) to a
// block of whole lines of about chunkBytes, returning it and the start of
// the next line. At the end of the input err is io.EOF and last says
// whether the block's last line lacks its newline.
func nextBlock(r io.Reader, carry []byte) (block, rest []byte, last bool, err error) {
	buf := make([]byte, len(carry), max(chunkBytes, 2*len(carry)))
	copy(buf, carry)
	for {
		n, rerr := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			return buf, nil, len(buf) > 0 && buf[len(buf)-1] != '\n', io.EOF
		}
		if rerr != nil {
			return buf, nil, false, rerr
		}
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			return buf[:i+1], buf[i+1:], false, nil
		}
		if len(buf) > MaxLine {
			return nil, nil, false, fmt.Errorf("record longer than %d bytes", MaxLine)
		}
		buf = append(buf, make([]byte, len(buf))...)[:len(buf)]
	}
}

// splitBlock splits the lines of block; with last its final line has no
// newline, which is an error.
func splitBlock(block []byte, last bool) lineBatch {
	text := string(block)
	b := lineBatch{lines: make([]splitLine, 0, bytes.Count(block, []byte{'\n'})+1)}
	parts := make([]string, 0, len(text)/8+16)
	fields := make([]field, 0, len(text)/32+8)
	nums, oks := make([]float64, 0, len(text)/16+8), make([]bool, 0, len(text)/16+8)
	for len(text) > 0 {
		i := indexNewline(text)
		if i < 0 {
			if last {
				b.lines = append(b.lines, splitLine{err: errNoNewline})
			}
			break
		}
		line := text[:i]
		text = text[i+1:]
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		if len(line) == 0 {
			b.lines = append(b.lines, splitLine{blank: true})
			continue
		}
		var sl splitLine
		sl.fields, parts, sl.err = splitInto(line, parts[len(parts):], fields[len(fields):])
		// The line's fields were appended in the arena's room unless they
		// outgrew it (then they live elsewhere and the room stays free).
		if n := len(sl.fields); n <= cap(fields)-len(fields) {
			fields = fields[:len(fields)+n]
		}
		if sl.err == nil {
			sl.nums, sl.numOK, nums, oks = ctxNumbers(sl.fields, nums, oks)
		}
		b.lines = append(b.lines, sl)
	}
	return b
}

// indexNewline returns the index of the first '\n' of s, or -1.
func indexNewline(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return i
		}
	}
	return -1
}

// ctxNumbers parses the data values of a ctx record as numbers, appending
// them to the arenas nums and oks, and returns them and the arenas.
func ctxNumbers(fields []field, nums []float64, oks []bool) ([]float64, []bool, []float64, []bool) {
	if len(fields) == 0 || fields[0].key != "__rec" || len(fields[0].vals) != 1 || fields[0].vals[0] != "ctx" {
		return nil, nil, nums, oks
	}
	for _, f := range fields[1:] {
		if f.key != "data" {
			continue
		}
		start := len(nums)
		for _, s := range f.vals {
			v, err := parseNumber(s)
			nums, oks = append(nums, v), append(oks, err == nil)
		}
		return nums[start:len(nums):len(nums)], oks[start:len(oks):len(oks)], nums, oks
	}
	return nil, nil, nums, oks
}
