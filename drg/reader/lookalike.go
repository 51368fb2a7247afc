package reader

import "bytes"

// lookalikes are the other profilers' files that are easy to tell by their
// first bytes, with what to say about each.
var lookalikes = []struct {
	mark []byte
	what string
}{
	{[]byte("@ mpiP"), "this is an mpiP report; mpiP is not supported"},
	{[]byte("gmon"), "this is gprof's raw gmon.out; run `gprof PROGRAM gmon.out > profile.txt` and read profile.txt"},
	{[]byte("# callgrind format"), "this is raw callgrind output; convert it with gprof2dot (`gprof2dot -f callgrind FILE > FILE.dot`) and read the DOT file"},
	{[]byte("events: "), "this looks like raw callgrind output; convert it with gprof2dot (`gprof2dot -f callgrind FILE > FILE.dot`) and read the DOT file"},
	{[]byte("PERFILE2"), "this is a Linux perf.data file; perf is not supported"},
	{[]byte(`"traceEvents"`), "this is a Chrome trace (JSON trace events); traces are not supported"},
	{[]byte("%PDF"), "this is a PDF document, not a profile"},
}

// lookalike names what head looks like when it is another tool's output
// that no reader takes, or returns "".
func lookalike(head []byte) string {
	for _, l := range lookalikes {
		if bytes.HasPrefix(head, l.mark) || (len(l.mark) > 8 && bytes.Contains(head, l.mark)) {
			return l.what
		}
	}
	return ""
}
