package callquery

import "regexp"

// compileMatch compiles the pattern of =~, anchored at the start of the
// value as Python's re.match (and so Hatchet) anchors it: "MPI_" matches
// "MPI_Send()"; add "$" to match the whole value. The syntax is RE2's (Go
// regexp), which Python's shares for everyday patterns; matching takes
// time linear in the value, whatever the pattern.
func compileMatch(pat string) (*regexp.Regexp, error) {
	return regexp.Compile(`^(?:` + pat + `)`)
}
