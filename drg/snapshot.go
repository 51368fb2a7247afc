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

// renumber points the snapshot at renumbered nodes (node i becomes
// newIdx[i]); entries of two old nodes that became one are added together.
func (s *Snapshot) renumber(newIdx []int) {
	at := make(map[int]int, len(s.Nodes))
	k := 0
	for i, n := range s.Nodes {
		n = newIdx[n]
		if j, dup := at[n]; dup {
			s.Calls[j] += s.Calls[i]
			s.Subroutines[j] += s.Subroutines[i]
			for m := range s.Inclusive {
				s.Inclusive[m][j] += s.Inclusive[m][i]
				s.Exclusive[m][j] += s.Exclusive[m][i]
			}
			continue
		}
		at[n] = k
		s.Nodes[k], s.Calls[k], s.Subroutines[k] = n, s.Calls[i], s.Subroutines[i]
		for m := range s.Inclusive {
			s.Inclusive[m][k] = s.Inclusive[m][i]
			s.Exclusive[m][k] = s.Exclusive[m][i]
		}
		k++
	}
	s.Nodes, s.Calls, s.Subroutines = s.Nodes[:k], s.Calls[:k], s.Subroutines[:k]
	for m := range s.Inclusive {
		s.Inclusive[m] = s.Inclusive[m][:k]
		s.Exclusive[m] = s.Exclusive[m][:k]
	}
}
