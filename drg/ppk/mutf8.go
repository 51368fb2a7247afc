package ppk

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeMUTF8 decodes the modified UTF-8 that Java's DataOutput.writeUTF
// writes and returns the text as a Go (UTF-8) string.
//
// It accepts what Java's DataInput.readUTF accepts: 1-byte units 0xxxxxxx
// (including 0x00), 2-byte units 110xxxxx 10xxxxxx (NUL is C0 80) and 3-byte
// units 1110xxxx 10xxxxxx 10xxxxxx, each giving one UTF-16 code unit. A
// continuation byte 10xxxxxx where a unit should start, a byte 1111xxxx
// (so also a standard 4-byte UTF-8 sequence) and a unit cut short by the end
// of the string are rejected. A high surrogate followed by a low surrogate
// is rebuilt into one character above U+FFFF; a surrogate without its
// partner, which a Go string cannot hold, becomes U+FFFD.
//
// On error it also returns the index in b of the offending byte.
func decodeMUTF8(b []byte) (string, int, error) {
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b), 0, nil
	}
	// Every unit decodes to at most as many UTF-8 bytes as it takes here
	// (a 6-byte surrogate pair becomes 4 bytes), so len(b) is enough.
	out := make([]byte, 0, len(b))
	high := rune(-1) // a high surrogate waiting for its low half
	for i := 0; i < len(b); {
		c := b[i]
		var u rune
		switch {
		case c < 0x80:
			u = rune(c)
			i++
		case c>>5 == 0x6: // 110xxxxx 10xxxxxx
			if i+2 > len(b) {
				return "", i, fmt.Errorf("2-byte sequence %#02x cut short by the end of the string", c)
			}
			if b[i+1]&0xC0 != 0x80 {
				return "", i + 1, fmt.Errorf("byte %#02x is not a continuation of %#02x", b[i+1], c)
			}
			u = rune(c&0x1F)<<6 | rune(b[i+1]&0x3F)
			i += 2
		case c>>4 == 0xE: // 1110xxxx 10xxxxxx 10xxxxxx
			if i+3 > len(b) {
				return "", i, fmt.Errorf("3-byte sequence %#02x cut short by the end of the string", c)
			}
			for k := 1; k <= 2; k++ {
				if b[i+k]&0xC0 != 0x80 {
					return "", i + k, fmt.Errorf("byte %#02x is not a continuation of %#02x", b[i+k], c)
				}
			}
			u = rune(c&0x0F)<<12 | rune(b[i+1]&0x3F)<<6 | rune(b[i+2]&0x3F)
			i += 3
		case c>>6 == 0x2:
			return "", i, fmt.Errorf("continuation byte %#02x where a character should start", c)
		default:
			return "", i, fmt.Errorf("byte %#02x cannot occur in modified UTF-8", c)
		}
		if high >= 0 {
			if utf16.IsSurrogate(u) && u >= 0xDC00 {
				out = utf8.AppendRune(out, utf16.DecodeRune(high, u))
				high = -1
				continue
			}
			out = utf8.AppendRune(out, utf8.RuneError)
			high = -1
		}
		if u >= 0xD800 && u < 0xDC00 {
			high = u
			continue
		}
		// A lone low surrogate is not a valid rune: AppendRune writes U+FFFD.
		out = utf8.AppendRune(out, u)
	}
	if high >= 0 {
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	return string(out), 0, nil
}
