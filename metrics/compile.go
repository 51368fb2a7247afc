package metrics

import (
	"errors"
	"fmt"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/parser/lexer"
)

// Limits on an expression, checked by Compile. Evaluation performs at most
// one vector operation per AST node, so MaxNodes also bounds the cost of
// evaluating one (node, thread) cell.
const (
	// MaxSourceBytes is the longest accepted expression, in bytes.
	MaxSourceBytes = 4096
	// MaxNodes is the largest accepted number of AST nodes (literals, names,
	// operators, function calls and their callee names, ?: nodes).
	MaxNodes = 256
)

// The pseudo-metrics: in an expression, CALLS is the number of calls of the
// node on the thread and SUBROUTINES the number of calls it made to other
// timed regions (the same value in the inclusive and the exclusive pass).
// These two names always denote the pseudo-metrics, even if the trial has a
// metric of the same name.
const (
	Calls       = "CALLS"
	Subroutines = "SUBROUTINES"
)

// functions lists the callable functions and their arity (-2: two or more).
var functions = map[string]int{
	"min": -2, "max": -2, "abs": 1, "sqrt": 1, "log": 1, "log2": 1,
	"log10": 1, "exp": 1, "floor": 1, "ceil": 1, "metric": 1,
}

// functionList is the documentation order of the functions, used in errors.
const functionList = "min, max, abs, sqrt, log, log2, log10, exp, floor, ceil, metric"

// Expr is a compiled derived-metric expression. It is immutable and safe for
// concurrent use by several Evaluate calls.
type Expr struct {
	src    string
	inputs []string  // names of the metrics (or pseudo-metrics) read, by input id
	consts []float64 // literal values, by constant id
	code   []step    // the program, in evaluation order
	nreg   int       // number of scratch registers
	result int32     // the view holding the value of the expression
}

// String returns the expression's source text.
func (e *Expr) String() string { return e.src }

// Uses returns the names of the metrics the expression reads, in order of
// first use, including the pseudo-metrics CALLS and SUBROUTINES when used.
func (e *Expr) Uses() []string { return append([]string(nil), e.inputs...) }

// Error is an expression rejected by Compile. Its text is the message, the
// position "(line:column)" (1-based, columns counted in characters) and the
// offending source line with a caret under the error, as expr writes its own
// errors:
//
//	unknown function "len"; the functions are min, max, ... (1:1)
//	 | len("x")
//	 | ^
type Error struct {
	// Message says what is wrong.
	Message string
	// Line and Column locate the error (1-based); both are 0 when the
	// error concerns the whole expression (its size).
	Line, Column int
	// Snippet is the offending line and the caret line, each preceded by
	// "\n | "; empty when there is no position.
	Snippet string
}

// Error returns the message, the position and the snippet.
func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Message
	}
	return fmt.Sprintf("%s (%d:%d)%s", e.Message, e.Line, e.Column, e.Snippet)
}

// kind is the type of a subexpression: a number or a condition.
type kind uint8

const (
	number kind = iota
	condition
)

// compiler turns a parsed expression into a program.
type compiler struct {
	src     file.Source
	metrics []string
	expr    *Expr
	inputID map[string]int
	constID map[float64]int
	code    []instr
	depth   int // registers in use
	nodes   int // AST nodes visited
	err     *Error
}

// Compile parses and checks an expression over the metric names in metrics
// (usually the trial's: see Names) and compiles it for Evaluate. The language
// is described in the package documentation; anything outside it, a syntax
// error, an unknown metric or function, a wrong number of arguments, a
// number used as a condition or a condition used as a number, an expression
// longer than MaxSourceBytes or with more than MaxNodes AST nodes is
// rejected with an *Error that gives the position.
func Compile(src string, metrics []string) (*Expr, error) {
	if len(src) > MaxSourceBytes {
		return nil, &Error{Message: fmt.Sprintf("expression is %d bytes long; at most %d bytes are allowed", len(src), MaxSourceBytes)}
	}
	if strings.TrimSpace(src) == "" {
		return nil, &Error{Message: "expression is empty"}
	}
	source := file.NewSource(src)
	if err := checkTokens(source); err != nil {
		return nil, err
	}
	cfg := conf.CreateNew()
	expr.DisableAllBuiltins()(cfg)
	expr.MaxNodes(MaxNodes)(cfg)
	for name := range cfg.Disabled {
		delete(cfg.Builtins, name)
	}
	tree, err := parser.ParseWithConfig(src, cfg)
	if err != nil {
		return nil, convert(err)
	}
	c := &compiler{
		src:     source,
		metrics: metrics,
		expr:    &Expr{src: src},
		inputID: map[string]int{},
		constID: map[float64]int{},
	}
	res, k := c.compile(tree.Node)
	if c.err != nil {
		return nil, c.err
	}
	if k != number {
		return nil, c.errorAt(tree.Node, "the expression yields a condition (true or false), not a number; use cond ? a : b to turn it into one")
	}
	c.expr.lower(c.code)
	c.expr.result = c.expr.view(res)
	return c.expr, nil
}

// exprTooLarge is the message of expr's parser when the node budget is spent.
const exprTooLarge = "compilation failed: expression exceeds maximum allowed nodes"

// convert turns an error of expr's lexer or parser into an *Error.
func convert(err error) *Error {
	var fe *file.Error
	if !errors.As(err, &fe) {
		return &Error{Message: err.Error()}
	}
	msg := fe.Message
	if msg == exprTooLarge {
		msg = tooManyNodes()
	}
	return &Error{Message: msg, Line: fe.Line, Column: fe.Column + 1, Snippet: fe.Snippet}
}

func tooManyNodes() string {
	return fmt.Sprintf("expression has more than %d nodes (names, numbers, operators and calls)", MaxNodes)
}

// allowedOperators are the operator tokens of the language.
var allowedOperators = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "^": true, "**": true,
	"<": true, "<=": true, ">": true, ">=": true, "==": true, "!=": true,
	"&&": true, "||": true, "!": true, "and": true, "or": true, "not": true,
	"?": true, ":": true, ",": true, "if": true, "else": true,
}

// forbidden explains why an operator token of expr is not in the language.
var forbidden = map[string]string{
	"|":          "pipes (|) are not allowed",
	".":          "member access (.) is not allowed",
	"?.":         "member access (?.) is not allowed",
	"??":         "the ?? operator is not allowed",
	"%":          "the % operator is not allowed",
	"..":         "ranges (..) are not allowed",
	";":          "sequences (;) are not allowed",
	"let":        "variables (let) are not allowed",
	"=":          "assignment (=) is not allowed; == compares",
	"#":          "closures (#) are not allowed",
	"::":         "the :: operator is not allowed",
	"in":         "the in operator is not allowed",
	"matches":    "the matches operator is not allowed",
	"contains":   "the contains operator is not allowed",
	"startsWith": "the startsWith operator is not allowed",
	"endsWith":   "the endsWith operator is not allowed",
}

// checkTokens rejects the tokens of expr that are outside the language
// (pipes, member access, indexing ...) before parsing, so that the message
// names the construct rather than a consequence of it.
func checkTokens(src file.Source) *Error {
	tokens, err := lexer.Lex(src)
	if err != nil {
		return convert(err)
	}
	for _, t := range tokens {
		msg := ""
		switch t.Kind {
		case lexer.Operator:
			if !allowedOperators[t.Value] {
				msg = forbidden[t.Value]
				if msg == "" {
					msg = fmt.Sprintf("the %s operator is not allowed", t.Value)
				}
			}
		case lexer.Bracket:
			if t.Value == "[" || t.Value == "]" {
				msg = "indexing and arrays ([ ]) are not allowed"
			}
		case lexer.Bytes:
			msg = "byte strings are not allowed"
		}
		if msg != "" {
			return bind(src, t.Location, msg)
		}
	}
	return nil
}

// bind makes an *Error at loc.
func bind(src file.Source, loc file.Location, msg string) *Error {
	fe := (&file.Error{Location: loc, Message: msg}).Bind(src)
	return &Error{Message: msg, Line: fe.Line, Column: fe.Column + 1, Snippet: fe.Snippet}
}

func (c *compiler) errorAt(n ast.Node, format string, args ...any) *Error {
	if c.err == nil {
		c.err = bind(c.src, location(n), fmt.Sprintf(format, args...))
	}
	return c.err
}

// location returns where an error about node n points: the operator of a
// unary or binary node, the name of a call, the condition of a ?: or if
// (expr places those after the expression, or nowhere).
func location(n ast.Node) file.Location {
	if c, ok := n.(*ast.ConditionalNode); ok {
		return location(c.Cond)
	}
	return n.Location()
}

// operand names a vector: a register, an input column or a constant.
type operand struct {
	class operandClass
	index int
}

type operandClass uint8

const (
	register operandClass = iota
	input
	constant
)

// compile checks node and emits its code; it returns where its value is
// and its kind. On error c.err is set and the results are meaningless.
func (c *compiler) compile(n ast.Node) (operand, kind) {
	if !c.count(n) {
		return operand{}, number
	}
	switch n := n.(type) {
	case *ast.IntegerNode:
		return c.constant(float64(n.Value)), number
	case *ast.FloatNode:
		return c.constant(n.Value), number
	case *ast.IdentifierNode:
		return c.metric(n, n.Value), number
	case *ast.StringNode:
		if c.backquoted(n) {
			return c.metric(n, n.Value), number
		}
		c.errorAt(n, "a quoted string is allowed only as the argument of metric(...); write metric(%q) for a metric name", n.Value)
	case *ast.UnaryNode:
		return c.unary(n)
	case *ast.BinaryNode:
		return c.binary(n)
	case *ast.ConditionalNode:
		return c.conditional(n)
	case *ast.CallNode:
		return c.call(n)
	case *ast.BuiltinNode:
		c.errorAt(n, "unknown function %q; the functions are %s", n.Name, functionList)
	case *ast.BoolNode:
		c.errorAt(n, "true and false are not allowed; write a comparison")
	case *ast.NilNode:
		c.errorAt(n, "nil is not allowed")
	case *ast.MemberNode, *ast.ChainNode:
		c.errorAt(n, "member access is not allowed")
	case *ast.SliceNode:
		c.errorAt(n, "slices are not allowed")
	case *ast.ArrayNode:
		c.errorAt(n, "arrays are not allowed")
	case *ast.MapNode, *ast.PairNode:
		c.errorAt(n, "maps are not allowed")
	case *ast.PredicateNode, *ast.PointerNode:
		c.errorAt(n, "closures are not allowed")
	case *ast.SequenceNode:
		c.errorAt(n, "sequences (;) are not allowed")
	case *ast.VariableDeclaratorNode:
		c.errorAt(n, "variables (let) are not allowed")
	default:
		c.errorAt(n, "%s is not allowed", n)
	}
	return operand{}, number
}

// count counts node n against MaxNodes; it reports whether compiling may
// go on.
func (c *compiler) count(n ast.Node) bool {
	if c.err != nil {
		return false
	}
	c.nodes++
	if c.nodes > MaxNodes {
		c.errorAt(n, "%s", tooManyNodes())
		return false
	}
	return true
}

// backquoted reports whether a string literal was written `like this`,
// which the language reads as a metric name.
func (c *compiler) backquoted(n *ast.StringNode) bool {
	at := 0
	for _, r := range c.src.String() {
		if at == n.Location().From {
			return r == '`'
		}
		at++
	}
	return false
}

// constant returns the operand of a literal.
func (c *compiler) constant(v float64) operand {
	id, ok := c.constID[v]
	if !ok {
		id = len(c.expr.consts)
		c.constID[v] = id
		c.expr.consts = append(c.expr.consts, v)
	}
	return operand{class: constant, index: id}
}

// metric resolves a metric name met at node n.
func (c *compiler) metric(n ast.Node, name string) operand {
	if id, ok := c.inputID[name]; ok {
		return operand{class: input, index: id}
	}
	known := name == Calls || name == Subroutines
	for _, m := range c.metrics {
		if m == name {
			known = true
			break
		}
	}
	if !known {
		c.errorAt(n, "%s", c.unknownMetric(name))
		return operand{}
	}
	id := len(c.expr.inputs)
	c.inputID[name] = id
	c.expr.inputs = append(c.expr.inputs, name)
	return operand{class: input, index: id}
}

// unknownMetric is the message for an unknown metric name: it suggests a
// metric that differs only in case and lists the metrics.
func (c *compiler) unknownMetric(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "unknown metric %q", name)
	for _, m := range append(append([]string(nil), c.metrics...), Calls, Subroutines) {
		if strings.EqualFold(m, name) {
			fmt.Fprintf(&b, " (did you mean %q?)", m)
			break
		}
	}
	if len(c.metrics) == 0 {
		b.WriteString("; there is no metric, only the pseudo-metrics CALLS, SUBROUTINES")
		return b.String()
	}
	b.WriteString("; the metrics are ")
	for _, m := range c.metrics {
		fmt.Fprintf(&b, "%q, ", m)
	}
	b.WriteString("and the pseudo-metrics CALLS, SUBROUTINES")
	return b.String()
}

// alloc returns a fresh register; release gives back the registers of
// operands (registers are used as a stack).
func (c *compiler) alloc() operand {
	r := operand{class: register, index: c.depth}
	c.depth++
	c.expr.nreg = max(c.expr.nreg, c.depth)
	return r
}

func (c *compiler) release(ops ...operand) {
	for _, o := range ops {
		if o.class == register {
			c.depth--
		}
	}
}

func (c *compiler) emit(op opcode, args ...operand) operand {
	c.release(args...)
	in := instr{op: op}
	copy(in.args[:], args)
	in.dst = c.alloc()
	c.code = append(c.code, in)
	return in.dst
}

// want checks that a subexpression has the kind the context needs.
func (c *compiler) want(n ast.Node, got, want kind, context string) {
	if got == want {
		return
	}
	if want == number {
		c.errorAt(n, "%s needs a number, not a condition (true or false)", context)
	} else {
		c.errorAt(n, "%s needs a condition (a comparison), not a number", context)
	}
}

func (c *compiler) unary(n *ast.UnaryNode) (operand, kind) {
	a, k := c.compile(n.Node)
	switch n.Operator {
	case "+":
		c.want(n.Node, k, number, "unary +")
		return a, number
	case "-":
		c.want(n.Node, k, number, "unary -")
		return c.emit(opNeg, a), number
	case "!", "not":
		c.want(n.Node, k, condition, n.Operator)
		return c.emit(opNot, a), condition
	}
	c.errorAt(n, "the unary %s operator is not allowed", n.Operator)
	return operand{}, number
}

var arithmetic = map[string]opcode{
	"+": opAdd, "-": opSub, "*": opMul, "/": opDiv, "^": opPow, "**": opPow,
}

var comparisons = map[string]opcode{
	"<": opLt, "<=": opLe, ">": opGt, ">=": opGe, "==": opEq, "!=": opNe,
}

var logical = map[string]opcode{"&&": opAnd, "and": opAnd, "||": opOr, "or": opOr}

func (c *compiler) binary(n *ast.BinaryNode) (operand, kind) {
	op, arith := arithmetic[n.Operator]
	cmp, isCmp := comparisons[n.Operator]
	lop, isLogical := logical[n.Operator]
	if !arith && !isCmp && !isLogical {
		c.errorAt(n, "the %s operator is not allowed", n.Operator)
		return operand{}, number
	}
	a, ka := c.compile(n.Left)
	b, kb := c.compile(n.Right)
	context := "operator " + n.Operator
	switch {
	case arith:
		c.want(n.Left, ka, number, context)
		c.want(n.Right, kb, number, context)
		return c.emit(op, a, b), number
	case isCmp:
		c.want(n.Left, ka, number, context)
		c.want(n.Right, kb, number, context)
		return c.emit(cmp, a, b), condition
	default:
		c.want(n.Left, ka, condition, context)
		c.want(n.Right, kb, condition, context)
		return c.emit(lop, a, b), condition
	}
}

func (c *compiler) conditional(n *ast.ConditionalNode) (operand, kind) {
	cond, kc := c.compile(n.Cond)
	a, ka := c.compile(n.Exp1)
	b, kb := c.compile(n.Exp2)
	c.want(n.Cond, kc, condition, "the condition of ?: or if")
	if ka != kb {
		c.errorAt(n.Exp2, "the two branches of ?: or if must both be numbers or both be conditions")
	}
	return c.emit(opSelect, cond, a, b), ka
}

var unaryFunctions = map[string]opcode{
	"abs": opAbs, "sqrt": opSqrt, "log": opLog, "log2": opLog2, "log10": opLog10,
	"exp": opExp, "floor": opFloor, "ceil": opCeil,
}

func (c *compiler) call(n *ast.CallNode) (operand, kind) {
	callee, ok := n.Callee.(*ast.IdentifierNode)
	if !ok {
		c.errorAt(n, "only the functions %s can be called", functionList)
		return operand{}, number
	}
	name := callee.Value
	arity, ok := functions[name]
	if !ok {
		c.errorAt(n, "unknown function %q; the functions are %s", name, functionList)
		return operand{}, number
	}
	if !c.count(callee) {
		return operand{}, number
	}
	args := n.Arguments
	switch {
	case arity == -2 && len(args) < 2:
		c.errorAt(n, "%s takes two or more arguments, got %d", name, len(args))
		return operand{}, number
	case arity >= 0 && len(args) != arity:
		c.errorAt(n, "%s takes %d argument, got %d", name, arity, len(args))
		return operand{}, number
	}
	if name == "metric" {
		s, ok := args[0].(*ast.StringNode)
		if !ok {
			c.errorAt(args[0], "metric takes a quoted metric name, as in metric(\"Time (s)\")")
			return operand{}, number
		}
		if !c.count(s) {
			return operand{}, number
		}
		return c.metric(s, s.Value), number
	}
	if op, ok := unaryFunctions[name]; ok {
		a, k := c.compile(args[0])
		c.want(args[0], k, number, name)
		return c.emit(op, a), number
	}
	op := opMin
	if name == "max" {
		op = opMax
	}
	acc, k := c.compile(args[0])
	c.want(args[0], k, number, name)
	for _, arg := range args[1:] {
		b, k := c.compile(arg)
		c.want(arg, k, number, name)
		acc = c.emit(op, acc, b)
	}
	return acc, number
}
