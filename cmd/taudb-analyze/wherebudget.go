package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
)

// Bounds on a --where expression (and a study's where:), which runs once
// per stored trial. expr-lang's predicates (all, any, map, filter, ...)
// loop, so nested ones over large ranges could run for hours: every
// evaluation of a predicate's body counts as a step, and an evaluation
// that takes more than whereMaxSteps steps fails.
const (
	// whereMaxBytes is the longest expression accepted.
	whereMaxBytes = 4096
	// whereMaxNodes is the most AST nodes accepted.
	whereMaxNodes = 1024
	// whereMaxSteps is the most predicate evaluations for one trial.
	whereMaxSteps = 1_000_000
)

// errWhereBudget is the error of an evaluation past whereMaxSteps.
var errWhereBudget = fmt.Errorf("more than %d steps (predicate evaluations of all, any, map, filter, ...) for one trial: simplify the expression", whereMaxSteps)

// errWhereMemory is the error of an evaluation past expr-lang's memory
// budget (conf.DefaultMemoryBudget: a million items of ranges, arrays and
// maps built).
var errWhereMemory = errors.New("builds more than a million items (ranges, arrays, maps) for one trial: simplify the expression")

// tickName is the function that counts steps; the name cannot be written
// in an expression (identifiers do not start with "$").
const tickName = "$tick"

// whereProgram is a compiled --where expression with its step counter.
type whereProgram struct {
	prog  *vm.Program
	steps int
}

// ticker wraps the body of every predicate of the expression in a call to
// tickName, which counts it.
type ticker struct{}

// Visit implements ast.Visitor.
func (ticker) Visit(node *ast.Node) {
	if c, ok := (*node).(*ast.PredicateNode); ok {
		c.Node = &ast.CallNode{Callee: &ast.IdentifierNode{Value: tickName}, Arguments: []ast.Node{c.Node}}
	}
}

// compileWhere compiles src with the given options (environment, result
// type, functions) and the step counter.
func compileWhere(src string, opts ...expr.Option) (*whereProgram, error) {
	if len(src) > whereMaxBytes {
		return nil, fmt.Errorf("expression is %d bytes long; at most %d bytes are allowed", len(src), whereMaxBytes)
	}
	w := &whereProgram{}
	tick := func(args ...any) (any, error) {
		w.steps++
		if w.steps > whereMaxSteps {
			return nil, errWhereBudget
		}
		return args[0], nil
	}
	opts = append(opts, expr.MaxNodes(whereMaxNodes), expr.Patch(ticker{}),
		expr.Function(tickName, tick, new(func(bool) bool), new(func(any) any)))
	prog, err := expr.Compile(src, opts...)
	if err != nil {
		return nil, err
	}
	w.prog = prog
	return w, nil
}

// run evaluates the program on env with a fresh step budget.
func (w *whereProgram) run(env any) (any, error) {
	w.steps = 0
	out, err := expr.Run(w.prog, env)
	switch {
	case err == nil:
	case errors.Is(err, errWhereBudget):
		return nil, errWhereBudget
	case strings.Contains(err.Error(), "memory budget exceeded"):
		return nil, errWhereMemory
	}
	return out, err
}
