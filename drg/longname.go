package drg

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxLongNameBytes is the longest name a reader accepts (64 KiB). A name
// longer than MaxNameBytes but within this is kept under ShortName's
// shortened form, its full text in Trial.LongNames; a longer one is an
// error (TAU writes user-event names of a few kilobytes at most: the
// longest real one seen is 2,208 bytes).
const MaxLongNameBytes = 64 << 10

// shortSuffixLen is the length of ShortName's suffix " [#" + 16 hex
// digits + "]".
const shortSuffixLen = 3 + 16 + 1

// ShortName returns s when it has at most MaxNameBytes bytes. A longer s
// becomes its first bytes (cut on a UTF-8 boundary) followed by
// " [#" + the first 16 hex digits of SHA-256(s) + "]", MaxNameBytes bytes
// at most: the same name always gives the same short name, and two long
// names that share their first 2 KB stay apart.
func ShortName(s string) string {
	if len(s) <= MaxNameBytes {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	cut := MaxNameBytes - shortSuffixLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.TrimRight(s[:cut], " ") + " [#" + hex.EncodeToString(sum[:8]) + "]"
}

// CheckLongName is CheckName with MaxLongNameBytes as the limit, for
// readers: the builder shortens what exceeds MaxNameBytes.
func CheckLongName(what, s string) error {
	if len(s) > MaxLongNameBytes {
		return fmt.Errorf("%s of %d bytes is longer than the %d bytes a name may have", what, len(s), MaxLongNameBytes)
	}
	return CheckText(what, s)
}

// shortenCallpath applies ShortName to each region of a callpath name
// ("A => B => C") and records every shortened region in long (short →
// full).
func shortenCallpath(name string, long map[string]string) string {
	if len(name) <= MaxNameBytes {
		return name
	}
	parts := strings.Split(name, CallpathSeparator)
	for i, p := range parts {
		if s := ShortName(p); s != p {
			long[s] = p
			parts[i] = s
		}
	}
	return strings.Join(parts, CallpathSeparator)
}
