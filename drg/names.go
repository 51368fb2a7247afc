package drg

import "strings"

// CallpathSeparator joins the elements of a TAU callpath name ("A => B").
const CallpathSeparator = " => "

// CanonicalName returns a timer or user-event name as TAUdb stores it: every
// run of two or more blanks replaced by one blank, then leading and trailing
// blanks removed (TAU's Java loader does the same; "MPI_Init()  " becomes
// "MPI_Init()").
func CanonicalName(s string) string {
	if !strings.Contains(s, "  ") {
		return strings.TrimSpace(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	blank := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' {
			if blank {
				continue
			}
			blank = true
		} else {
			blank = false
		}
		b.WriteByte(c)
	}
	return strings.TrimSpace(b.String())
}

// SplitCallpath splits a canonical callpath name into its parent path and its
// leaf: "A => B => C" gives ("A => B", "C"); a flat name gives ("", name).
func SplitCallpath(name string) (parent, leaf string) {
	i := strings.LastIndex(name, CallpathSeparator)
	if i < 0 {
		return "", name
	}
	return strings.TrimSpace(name[:i]), strings.TrimSpace(name[i+len(CallpathSeparator):])
}

// SplitGroups splits a TAU group string ("TAU_PARAM | TAU_USER") into its
// trimmed, non-empty parts.
func SplitGroups(s string) []string {
	var out []string
	for _, g := range strings.Split(s, "|") {
		if g = strings.TrimSpace(g); g != "" {
			out = append(out, g)
		}
	}
	return out
}
