package callquery_test

import (
	"errors"
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/callquery"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Example: the MPI calls made below solve, on a one-thread trial
// main => solve => {MPI_Send(), work => MPI_Recv()}.
func Example() {
	b, _ := drg.NewBuilder([]drg.ThreadID{{}})
	tm := b.Metric("TIME")
	for _, p := range []string{"main", "main => solve", "main => solve => MPI_Send()",
		"main => solve => work", "main => solve => work => MPI_Recv()"} {
		b.AddValues(b.Node(p), 0, tm, 1, 1)
	}
	t, _ := b.Finish("example", drg.Source{})

	q, _ := callquery.Parse(`MATCH (".", s)->("*")->(".", m) WHERE s."name" = "solve" AND m."name" STARTS WITH "MPI_"`)
	r, _ := q.Match(t)
	for _, n := range r.Preorder() {
		fmt.Println(t.Nodes[n].Name)
	}
	fmt.Println(len(r.Paths(10)), "paths")

	_, err := callquery.Parse(`MATCH (".", p) WHERE p."name" STARTS "MPI_"`)
	var qe *callquery.Error
	fmt.Println(errors.As(err, &qe), qe.Column, err)
	// Output:
	// main => solve
	// main => solve => MPI_Send()
	// main => solve => work
	// main => solve => work => MPI_Recv()
	// 2 paths
	// true 38 column 38: expected WITH after STARTS, found string "MPI_"
}
