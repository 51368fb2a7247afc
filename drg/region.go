package drg

import (
	"path"
	"strconv"
	"strings"
)

// Region is a code region: a TAUdb timer, named by its flat (non-callpath)
// name.
type Region struct {
	// Name is the canonical full name, for example
	// "int main(int, char **) C [{ring.c} {46,1}-{56,1}]".
	Name string
	// ShortName is the name without its source location ("int main(int,
	// char **) C"); it equals Name when the name has no location.
	ShortName string
	// SourceFile is the base name of the source file from the name's
	// location suffix, or "" when it has none.
	SourceFile string
	// LineStart, ColumnStart, LineEnd and ColumnEnd give the source span
	// ("{L1,C1}-{L2,C2}"); unknown parts are 0, as in TAUdb.
	LineStart, ColumnStart, LineEnd, ColumnEnd int
	// Groups lists the TAU groups of the region (TAUdb timer_group), in the
	// order TAU wrote them.
	Groups []string
	// Params lists the parameters of a parameter-profile name
	// ("foo [ <size> = <100> ]"), TAUdb timer_parameter.
	Params []Param
	// Flat is the index of the region's flat node in Trial.Nodes.
	Flat int
}

// Param is one name/value pair of a TAU parameter profile.
type Param struct {
	Name, Value string
}

// HasGroup reports whether the region belongs to group g.
func (r *Region) HasGroup(g string) bool {
	for _, x := range r.Groups {
		if x == g {
			return true
		}
	}
	return false
}

// Derived reports whether the region was made by ParaProf from others (group
// TAU_DERIVED, for example "[SUMMARY] f" entries that sum their "[SAMPLE]"
// members); such regions are left out of the flat view so that it never
// counts a value twice.
func (r *Region) Derived() bool { return r.HasGroup("TAU_DERIVED") }

// Sampled reports whether the region holds event-based samples rather than
// a timer: TAU's "[SAMPLE] f", "[CONTEXT] T", "[UNWIND] g", "[INTERMEDIATE] g"
// and ParaProf's "[SUMMARY] f" entries (groups TAU_SAMPLE, TAU_SAMPLE_CONTEXT, TAU_UNWIND).
// Their values attribute again time that the enclosing timers already
// hold, so the flat view leaves them out.
func (r *Region) Sampled() bool {
	for _, p := range []string{"[SAMPLE] ", "[CONTEXT] ", "[UNWIND] ", "[SUMMARY] ", "[INTERMEDIATE] "} {
		if strings.HasPrefix(r.Name, p) {
			return true
		}
	}
	return r.HasGroup("TAU_SAMPLE") || r.HasGroup("TAU_SAMPLE_CONTEXT") || r.HasGroup("TAU_UNWIND")
}

// parseRegionName fills the source location and parameters of r from its
// name, following TAU's Function.getSourceLink and parameter rules:
//
//	"f [{F} {L1,C1}-{L2,C2}]"            short "f", file F, span L1,C1-L2,C2
//	"f [{F} {L}]", "f [{F} {L,C}]"       short "f", file F, lines L-L, columns 0
//	"X [OpenMP location: file:P <L1, L2>]" short "X [OpenMP location: ", file P
//	"f [ <k> = <v> ]"                    parameter (k, v)
//
// File names keep only their base name, as TAUdb stores them.
func parseRegionName(r *Region) {
	name := r.Name
	r.ShortName = name
	if i := strings.Index(name, "[{"); i >= 0 {
		r.ShortName = strings.TrimSpace(name[:i])
		rest := name[i+2:]
		if j := strings.Index(rest, "}"); j >= 0 {
			r.SourceFile = path.Base(strings.TrimSpace(rest[:j]))
			loc := rest[j+1:]
			if k := strings.Index(loc, "{"); k >= 0 {
				parseSpan(r, loc[k:])
			}
		}
	} else if i := strings.Index(name, "[OpenMP location: file:"); i >= 0 {
		j := i + len("[OpenMP location: ")
		r.ShortName = name[:j]
		rest := name[j+len("file:"):]
		if k := strings.LastIndex(rest, " <"); k >= 0 {
			r.SourceFile = path.Base(rest[:k])
			nums := strings.TrimSuffix(strings.TrimSpace(rest[k+2:]), "]")
			nums = strings.TrimSuffix(strings.TrimSpace(nums), ">")
			if a, b, ok := strings.Cut(nums, ","); ok {
				r.LineStart = atoi(a)
				r.LineEnd = atoi(b)
			}
		}
	}
	r.Params = parseParams(name)
}

// parseSpan reads "{L1,C1}-{L2,C2}]", "{L}]" or "{L,C}]".
func parseSpan(r *Region, s string) {
	first, second, dash := strings.Cut(s, "}-{")
	first = strings.TrimPrefix(first, "{")
	if !dash {
		first, _, _ = strings.Cut(first, "}")
		l, _, _ := strings.Cut(first, ",")
		r.LineStart = atoi(l)
		r.LineEnd = r.LineStart
		return
	}
	second, _, _ = strings.Cut(second, "}")
	l1, c1, _ := strings.Cut(first, ",")
	l2, c2, _ := strings.Cut(second, ",")
	r.LineStart, r.ColumnStart = atoi(l1), atoi(c1)
	r.LineEnd, r.ColumnEnd = atoi(l2), atoi(c2)
}

// parseParams reads the "[ <k> = <v>, <k2> = <v2> ]" parameters of a name.
// The communicator form "[ <comm> = <ranks> <k> = <v> ]" yields only comm,
// as TAU's loader does.
func parseParams(name string) []Param {
	i := strings.Index(name, "[ <")
	if i < 0 {
		return nil
	}
	s := name[i+3:]
	var out []Param
	for {
		k, rest, ok := strings.Cut(s, "> = <")
		if !ok {
			return out
		}
		v, rest, ok := strings.Cut(rest, ">")
		if !ok {
			return out
		}
		out = append(out, Param{Name: strings.TrimSpace(k), Value: strings.TrimSpace(v)})
		j := strings.Index(rest, ", <")
		if j < 0 {
			return out
		}
		s = rest[j+3:]
	}
}

func atoi(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0
	}
	return n
}
