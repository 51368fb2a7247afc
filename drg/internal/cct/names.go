package cct

import (
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// RegionName returns the name Tree.AddNode gives a context's region: the
// name canonicalized as TAU does, with "=>" (TAU's callpath separator)
// written "->", and "<unnamed>" for an empty name.
func RegionName(name string) string {
	name = drg.CanonicalName(strings.ReplaceAll(name, "=>", "->"))
	if name == "" {
		return "<unnamed>"
	}
	return name
}

// contextName returns the name Collector.Child gives a context: " => "
// (TAU's callpath separator) inside a name becomes " -> ", and a blank name
// becomes "UNKNOWN".
func contextName(s string) string {
	s = strings.ReplaceAll(s, drg.CallpathSeparator, " -> ")
	if strings.TrimSpace(s) == "" {
		return "UNKNOWN"
	}
	return s
}
