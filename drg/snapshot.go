package drg

// Snapshot is one earlier profile of one thread, taken while the program ran
// (TAU_PROFILE_SNAPSHOT). Its values are cumulative since the start of the
// program, as TAU writes them; the difference between two consecutive
// snapshots is the work done between them.
type Snapshot struct {
	// Thread is the thread's position in Trial.Threads.
	Thread int
	// Name is the snapshot's name, if TAU was given one.
	Name string
	// Timestamp is the time of the snapshot in microseconds since the epoch.
	Timestamp int64
	// Nodes lists the nodes the thread had executed by then.
	Nodes []int
	// Calls and Subroutines are parallel to Nodes.
	Calls, Subroutines []float64
	// Inclusive and Exclusive hold one slice per metric, parallel to Nodes.
	Inclusive, Exclusive [][]float64
}
