// Package yamlmsg words YAML problems for the project's line-numbered file
// errors (study files, rules files): the kind of a node, and the line and
// message of a syntax error.
package yamlmsg

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// KindName names a YAML node's kind for a message: "mapping", "list",
// "alias" or "single value".
func KindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.AliasNode:
		return "alias"
	}
	return "single value"
}

// Syntax splits a YAML syntax error ("yaml: line 4: did not find ...") into
// its line (0 when it names none) and a message "not valid YAML: ...".
func Syntax(err error) (line int, msg string) {
	text := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(text, "line "); ok {
		if num, tail, ok := strings.Cut(rest, ":"); ok {
			if n, err := strconv.Atoi(num); err == nil {
				return n, "not valid YAML: " + strings.TrimSpace(tail)
			}
		}
	}
	return 0, "not valid YAML: " + text
}
