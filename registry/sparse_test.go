package registry

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// ownTimers builds a trial of n ranks, rank r with "main" and "own r mod
// k" (values from r), stored sparsely when sparse is set.
func ownTimers(t *testing.T, n, k int, sparse bool) *drg.Trial {
	ids := make([]drg.ThreadID, n)
	for i := range ids {
		ids[i] = drg.ThreadID{Node: i}
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		t.Fatal(err)
	}
	if sparse {
		b.StartSparse()
	}
	m := b.Metric("TIME")
	for r := range n {
		b.AddCalls(b.Node("main"), r, 1, 1)
		b.AddValues(b.Node("main"), r, m, float64(r%5), float64(100+r%13))
		own := b.Node(fmt.Sprintf("own %d", r%k))
		b.AddCalls(own, r, 1, 0)
		b.AddValues(own, r, m, float64(1+r%7), float64(1+r%7))
	}
	tr, err := b.Finish(fmt.Sprintf("ranks %d", n), drg.Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestSparseTrialsMadeDense runs correlate, which indexes the dense
// columns, on a sparse trial small enough to convert (Run makes it dense
// first: the result equals that on the trial built dense), and compare,
// which reads either layout, leaving the trials sparse; then correlate on
// a sparse trial of 3,000 ranks × 3,001 timers (9 million cells), which it
// refuses with drg.ErrTooSparse naming the trial, while imbalance and
// compare run on it.
func TestSparseTrialsMadeDense(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"correlate", "compare"} {
		a, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		in := func(sparse bool) Input {
			tr := []*drg.Trial{ownTimers(t, 40, 12, sparse)}
			if a.Trials == Pair {
				tr = append(tr, ownTimers(t, 40, 9, sparse))
			}
			return Input{Trials: tr}
		}
		dense, err := a.Run(ctx, a.Defaults(), in(false))
		if err != nil {
			t.Fatal(err)
		}
		sin := in(true)
		sparse, err := a.Run(ctx, a.Defaults(), sin)
		if err != nil {
			t.Fatalf("%s on a small sparse trial: %v", name, err)
		}
		if sin.Trials[0].IsSparse() != a.Sparse {
			t.Errorf("%s: the trial is sparse %v after Run", name, sin.Trials[0].IsSparse())
		}
		if d, s := fmt.Sprintf("%+v", *dense.Result), fmt.Sprintf("%+v", *sparse.Result); d != s {
			t.Errorf("%s: results differ:\n%s\n%s", name, d, s)
		}
	}
	big := ownTimers(t, 3000, 3000, true)
	a, _ := Lookup("correlate")
	_, err := a.Run(ctx, a.Defaults(), Input{Trials: []*drg.Trial{big}})
	want := `correlate: trial "ranks 3000" is sparse (3001 call-graph nodes × 3000 threads, 6000 cells hold values) and correlate needs every cell`
	if !errors.Is(err, drg.ErrTooSparse) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("correlate on 9 million cells: %v", err)
	}
	im, _ := Lookup("imbalance")
	if _, err := im.Run(ctx, im.Defaults(), Input{Trials: []*drg.Trial{big}}); err != nil || !big.IsSparse() {
		t.Errorf("imbalance: %v (sparse %v)", err, big.IsSparse())
	}
	cmp, _ := Lookup("compare")
	if _, err := cmp.Run(ctx, cmp.Defaults(), Input{Trials: []*drg.Trial{big, ownTimers(t, 3000, 2999, true)}}); err != nil {
		t.Errorf("compare: %v", err)
	}
}
