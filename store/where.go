package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
)

// Bounds of a where expression (Selection.Where). The expression is read
// once and run once per candidate trial; these keep both bounded whatever
// the text:
//
//   - at most MaxWhereBytes bytes of source and MaxWhereNodes syntax nodes;
//   - no predicate (all, any, filter, map, ...) inside another's closure,
//     no let declarations and no reduce or repeat, the constructs whose
//     cost or result may grow exponentially with the text's length;
//   - each run allocates at most WhereMemoryBudget elements (ranges and
//     lists, as expr-lang counts them), so that one run costs at most about
//     MaxWhereNodes × WhereMemoryBudget steps;
//   - all runs together take at most whereTimeBudget (WhereTimeBudget), and
//     the context's cancellation is honoured between trials.
const (
	MaxWhereBytes     = 4096
	MaxWhereNodes     = 512
	WhereMemoryBudget = 100_000
	WhereTimeBudget   = 30 * time.Second
)

// whereTimeBudget is WhereTimeBudget; tests shorten it.
var whereTimeBudget = WhereTimeBudget

// WhereError is SelectTrials' error for a where expression that is not
// accepted (Trial is 0: it does not compile, or it exceeds a bound) or that
// fails on one trial (Trial and TrialName say which).
type WhereError struct {
	Trial     int64
	TrialName string
	Err       error
}

func (e *WhereError) Error() string {
	if e.Trial == 0 {
		return "where: " + e.Err.Error()
	}
	return fmt.Sprintf("where on trial %d %q: %v", e.Trial, e.TrialName, e.Err)
}

func (e *WhereError) Unwrap() error { return e.Err }

// WhereEnv is what a where expression sees of one trial: the names in the
// expr tags, and num(s), the leading number of a metadata string.
type WhereEnv struct {
	ID          int64             `expr:"id"`
	Name        string            `expr:"name"`
	Application string            `expr:"application"`
	Experiment  string            `expr:"experiment"`
	Threads     int               `expr:"threads"`
	Metrics     []string          `expr:"metrics"`
	Meta        map[string]string `expr:"meta"`
}

// Num reads the leading number of a metadata string ("150 W" gives 150);
// a string without one gives 0.
func (WhereEnv) Num(s string) float64 {
	var v float64
	fmt.Sscanf(strings.TrimSpace(s), "%g", &v) //nolint:errcheck // no number reads as 0
	return v
}

// compileWhere checks src against the bounds and compiles it to a boolean
// program over WhereEnv.
func compileWhere(src string) (*vm.Program, error) {
	if len(src) > MaxWhereBytes {
		return nil, &WhereError{Err: fmt.Errorf("the expression is %d bytes long; at most %d are accepted", len(src), MaxWhereBytes)}
	}
	tree, err := parser.Parse(src)
	if err == nil {
		err = checkWhereTree(&tree.Node)
	}
	if err != nil {
		return nil, &WhereError{Err: err}
	}
	prog, err := expr.Compile(src, expr.Env(WhereEnv{}), expr.AsBool(), expr.MaxNodes(MaxWhereNodes),
		expr.Function("num", func(args ...any) (any, error) {
			str, _ := args[0].(string)
			return WhereEnv{}.Num(str), nil
		}, new(func(string) float64)))
	if err != nil {
		return nil, &WhereError{Err: err}
	}
	return prog, nil
}

// whereChecker finds the constructs a where expression may not use.
type whereChecker struct{ err error }

func (c *whereChecker) Visit(n *ast.Node) {
	if c.err != nil {
		return
	}
	switch n := (*n).(type) {
	case *ast.VariableDeclaratorNode:
		c.err = fmt.Errorf("let %s: declarations are not accepted in a trial selection", n.Name)
	case *ast.BuiltinNode:
		if n.Name == "reduce" || n.Name == "repeat" {
			c.err = fmt.Errorf("%s() is not accepted in a trial selection", n.Name)
		}
	case *ast.PredicateNode:
		inner := &predicateFinder{}
		ast.Walk(&n.Node, inner)
		if inner.found {
			c.err = errors.New("a predicate inside another predicate's closure is not accepted in a trial selection")
		}
	}
}

// predicateFinder reports whether a tree holds a predicate.
type predicateFinder struct{ found bool }

func (f *predicateFinder) Visit(n *ast.Node) {
	if _, ok := (*n).(*ast.PredicateNode); ok {
		f.found = true
	}
}

// checkWhereTree rejects let declarations, reduce, repeat and nested
// predicates.
func checkWhereTree(root *ast.Node) error {
	c := &whereChecker{}
	ast.Walk(root, c)
	return c.err
}

// metadataQuery reads the trial attributes (primary_metadata) of every
// trial at once; readWhereMetadata keeps the candidates' rows.
const metadataQuery = `SELECT trial, name, COALESCE(value, '') FROM primary_metadata ORDER BY trial, name, value`

// readWhereMetadata returns the attributes of the trials in want, each
// trial's map non-nil, in one query whatever their number.
func (db *DB) readWhereMetadata(ctx context.Context, want map[int64]bool) (map[int64]map[string]string, error) {
	out := make(map[int64]map[string]string, len(want))
	for id := range want {
		out[id] = map[string]string{}
	}
	err := db.readTx(ctx, func(r runner) error {
		return r.query(ctx, metadataQuery, func(scan func(...any) error) error {
			var id int64
			var k, v string
			if err := scan(&id, &k, &v); err != nil {
				return err
			}
			if m, ok := out[id]; ok {
				m[k] = v
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read trial metadata: %w", err)
	}
	return out, nil
}

// evalWhere runs prog on the candidate trials (cands, in that order; infos
// describes them) and returns those it selects, in order.
func (db *DB) evalWhere(ctx context.Context, prog *vm.Program, infos map[int64]TrialInfo, cands []int64) ([]int64, error) {
	want := make(map[int64]bool, len(cands))
	for _, id := range cands {
		want[id] = true
	}
	meta, err := db.readWhereMetadata(ctx, want)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(whereTimeBudget)
	var matched []int64
	for _, id := range cands {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("select trials: %w", err)
		}
		ti := infos[id]
		if time.Now().After(deadline) {
			return nil, &WhereError{Trial: ti.ID, TrialName: ti.Name,
				Err: fmt.Errorf("the expression ran longer than %v over the trials; simplify it", whereTimeBudget)}
		}
		ok, err := runWhere(prog, WhereEnv{ID: ti.ID, Name: ti.Name, Application: ti.Application, Experiment: ti.Experiment,
			Threads: ti.Threads, Metrics: ti.Metrics, Meta: meta[id]})
		if err != nil {
			return nil, &WhereError{Trial: ti.ID, TrialName: ti.Name, Err: err}
		}
		if ok {
			matched = append(matched, id)
		}
	}
	return matched, nil
}

// runWhere runs prog on env within WhereMemoryBudget.
func runWhere(prog *vm.Program, env WhereEnv) (bool, error) {
	machine := vm.VM{MemoryBudget: WhereMemoryBudget}
	out, err := machine.Run(prog, env)
	if err != nil {
		return false, err
	}
	b, _ := out.(bool)
	return b, nil
}
