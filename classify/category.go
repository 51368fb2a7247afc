package classify

import (
	"fmt"
	"strconv"
	"strings"
)

// Category is one of SCALEA's temporal overhead categories (Figure 2 of the
// paper), or Computation for the program's own work.
type Category string

// The categories. Rules assign DataMovement, Synchronization,
// ControlOfParallelism, AdditionalComputation or Computation; the analysis
// computes LossOfParallelism and Unidentified itself.
const (
	// DataMovement is any data transfer: point-to-point and collective
	// communication, remote memory access, file I/O.
	DataMovement Category = "data movement"
	// Synchronization coordinates processes (multi-address space: MPI
	// barriers, waits, window synchronization) or threads (single-address
	// space: OpenMP barriers, critical sections, locks, atomics, ordered).
	Synchronization Category = "synchronization"
	// ControlOfParallelism creates, manages and ends the parallelism: MPI
	// initialization, communicator and topology management, process
	// spawning, OpenMP fork/join, loop scheduling, work sharing, thread
	// creation.
	ControlOfParallelism Category = "control of parallelism"
	// AdditionalComputation is work the parallel version adds to the
	// sequential program (algorithmic or compiler changes, requests for
	// processing unit identifications).
	AdditionalComputation Category = "additional computation"
	// LossOfParallelism is computed: unparallelized, partially parallelized
	// and replicated code (see Analyze).
	LossOfParallelism Category = "loss of parallelism"
	// Unidentified is computed: T_o minus the identified overhead.
	Unidentified Category = "unidentified"
	// Computation marks regions that are the program's own work: no
	// overhead category, but subject to the loss-of-parallelism test.
	Computation Category = "computation"
)

// The sub-categories of LossOfParallelism (SCALEA's Figure 2(f)).
const (
	// SubUnparallelized is code executed by only one of p > 1 processes.
	SubUnparallelized = "unparallelized code"
	// SubPartial is code executed by more than one but not all processes.
	SubPartial = "partially parallelized code"
	// SubReplicated is code every process executes in full, as the
	// baseline did: the work is repeated instead of divided.
	SubReplicated = "replicated code"
)

// OverheadCategories returns the identified overhead categories in the order
// of SCALEA's Figure 2, which is the order of the experiments table's rows
// and of the sum that makes the total identified overhead.
func OverheadCategories() []Category {
	return []Category{DataMovement, Synchronization, ControlOfParallelism, AdditionalComputation, LossOfParallelism}
}

// ruleCategories are the categories a rule may assign.
var ruleCategories = []Category{DataMovement, Synchronization, ControlOfParallelism, AdditionalComputation, Computation}

// ParseCategory reads a category name. Case, underscores and hyphens do not
// matter ("Data_Movement" is DataMovement).
func ParseCategory(s string) (Category, error) {
	n := strings.ToLower(strings.TrimSpace(s))
	n = strings.NewReplacer("_", " ", "-", " ").Replace(n)
	n = strings.Join(strings.Fields(n), " ")
	for _, c := range []Category{DataMovement, Synchronization, ControlOfParallelism, AdditionalComputation, LossOfParallelism, Unidentified, Computation} {
		if n == string(c) {
			return c, nil
		}
	}
	return "", fmt.Errorf("unknown category %q (want one of %s)", s, categoryList(append(OverheadCategories(), Unidentified, Computation)))
}

func categoryList(cs []Category) string {
	q := make([]string, len(cs))
	for i, c := range cs {
		q[i] = strconv.Quote(string(c))
	}
	return strings.Join(q, ", ")
}

// assignable reports whether a rule may assign c.
func assignable(c Category) bool {
	for _, x := range ruleCategories {
		if x == c {
			return true
		}
	}
	return false
}

func computedError(c Category) error {
	return fmt.Errorf("category %q is computed by the analysis; a rule cannot assign it (want one of %s)", c, categoryList(ruleCategories))
}

// DefaultSub is the sub-category of a rule that gives none.
const DefaultSub = "other"

// Class is a coarse class of regions, the unit of every split of time by
// class (imbalance's per-thread split, summary, the multiset split).
type Class = string

// The coarse classes.
const (
	// ClassSampled marks the regions made by event-based sampling; their
	// time already lies within the exclusive time of the timer that was
	// running when the sample was taken, so sums skip them.
	ClassSampled Class = "sampled"
	// ClassMPI is time in MPI routines (MPI-IO excepted: see ClassIO).
	ClassMPI Class = "mpi"
	// ClassOpenMP is time in the OpenMP runtime and constructs, as TAU
	// measures them (a parallel-region timer's exclusive time includes the
	// body's work when the body has no timer of its own).
	ClassOpenMP Class = "openmp"
	// ClassIO is time in file input/output: POSIX and C I/O, ADIOS and
	// MPI-IO.
	ClassIO Class = "io"
	// ClassOther is time TAU accounts to itself rather than to a region of
	// the program.
	ClassOther Class = "other"
	// ClassComputation is everything else: the program's own code.
	ClassComputation Class = "computation"
)

// Classes returns the classes a rule may assign, sampled first, computation
// last.
func Classes() []Class {
	return []Class{ClassSampled, ClassMPI, ClassOpenMP, ClassIO, ClassOther, ClassComputation}
}

// SummedClasses returns the classes whose time splits sum, in column order:
// computation, mpi, openmp, io, other (sampled regions are skipped).
func SummedClasses() []Class {
	return []Class{ClassComputation, ClassMPI, ClassOpenMP, ClassIO, ClassOther}
}

// ParseClass reads a class name, case and blanks ignored.
func ParseClass(s string) (Class, error) {
	n := strings.ToLower(strings.TrimSpace(s))
	for _, c := range Classes() {
		if n == c {
			return c, nil
		}
	}
	q := make([]string, 0, 6)
	for _, c := range Classes() {
		q = append(q, strconv.Quote(c))
	}
	return "", fmt.Errorf("unknown class %q (want one of %s)", s, strings.Join(q, ", "))
}
