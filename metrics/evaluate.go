package metrics

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// opcode is an operation of the vector machine. Conditions are held as
// numbers: 1 true, 0 false, NaN undefined.
type opcode uint8

const (
	// unary, number -> number
	opNeg opcode = iota
	opAbs
	opSqrt
	opLog
	opLog2
	opLog10
	opExp
	opFloor
	opCeil
	// unary, condition -> condition
	opNot
	// binary, numbers -> number
	opAdd
	opSub
	opMul
	opDiv
	opPow
	opMin
	opMax
	// binary, numbers -> condition
	opLt
	opLe
	opGt
	opGe
	opEq
	opNe
	// binary, conditions -> condition
	opAnd
	opOr
	// condition ? a : b
	opSelect
)

// instr is an operation as the compiler emits it.
type instr struct {
	op   opcode
	dst  operand
	args [3]operand
}

// step is an operation as the machine runs it: its operands are indexes
// into the machine's views (registers, then inputs, then constants).
type step struct {
	op         opcode
	dst        int32
	a, b, cond int32
}

// block is the number of cells the machine processes per operation.
const block = 512

// view returns the index of an operand among the machine's views:
// registers first, then inputs, then constants.
func (e *Expr) view(o operand) int32 {
	switch o.class {
	case input:
		return int32(e.nreg + o.index)
	case constant:
		return int32(e.nreg + len(e.inputs) + o.index)
	}
	return int32(o.index)
}

// lower turns the compiler's instructions into steps.
func (e *Expr) lower(code []instr) {
	view := e.view
	for _, in := range code {
		s := step{op: in.op, dst: view(in.dst), a: view(in.args[0]), b: view(in.args[1])}
		if in.op == opSelect {
			s = step{op: in.op, dst: view(in.dst), cond: view(in.args[0]), a: view(in.args[1]), b: view(in.args[2])}
		}
		e.code = append(e.code, s)
	}
}

// Evaluate evaluates e on every (node, thread) cell of t where the thread
// has a record for the node: once with the inclusive values of the metrics
// (incl) and once with the exclusive ones (excl); CALLS and SUBROUTINES are
// the same in both passes. Both slices are indexed node*len(t.Threads)+thread
// like the trial's columns; an absent cell is 0 (t.Present tells it apart).
// A present cell is a finite number or NaN, which means undefined (see the
// package documentation: division by zero, overflow, logarithm of zero ...).
// The result has the unit of the expression over the metrics' units (TIME
// is in microseconds). Evaluate fails when the trial lacks a metric that e
// uses or when its columns do not have one value per cell.
func Evaluate(t *drg.Trial, e *Expr) (incl, excl []float64, err error) {
	if t == nil || e == nil {
		return nil, nil, fmt.Errorf("metrics: Evaluate needs a trial and an expression")
	}
	cells := len(t.Nodes) * len(t.Threads)
	in := make([][]float64, len(e.inputs))
	ex := make([][]float64, len(e.inputs))
	for i, name := range e.inputs {
		switch name {
		case Calls:
			in[i], ex[i] = t.Calls, t.Calls
		case Subroutines:
			in[i], ex[i] = t.Subroutines, t.Subroutines
		default:
			m := t.MetricIndex(name)
			if m < 0 || m >= len(t.Values) {
				return nil, nil, fmt.Errorf("expression %q uses metric %q, which trial %q does not have", e.src, name, t.Name)
			}
			in[i], ex[i] = t.Values[m].Inclusive, t.Values[m].Exclusive
		}
		if len(in[i]) != cells || len(ex[i]) != cells {
			return nil, nil, fmt.Errorf("trial %q: %s has %d inclusive and %d exclusive values for %d nodes × %d threads",
				t.Name, name, len(in[i]), len(ex[i]), len(t.Nodes), len(t.Threads))
		}
	}
	incl = make([]float64, cells)
	excl = make([]float64, cells)
	work := func(lo, hi int) {
		m := e.newMachine()
		for l := lo; l < hi; l += block {
			h := min(l+block, hi)
			store(incl[l:h], m.run(e, in, l, h), &t.Present, l)
			store(excl[l:h], m.run(e, ex, l, h), &t.Present, l)
		}
	}
	split(cells, work)
	return incl, excl, nil
}

// split runs work over [0, cells) in chunks of whole blocks, one goroutine
// per processor when there are enough cells to pay for it.
func split(cells int, work func(lo, hi int)) {
	const minChunk = 1 << 15
	p := min(runtime.GOMAXPROCS(0), (cells+minChunk-1)/minChunk)
	if p <= 1 {
		work(0, cells)
		return
	}
	chunk := (cells/p + block - 1) / block * block
	var wg sync.WaitGroup
	for lo := 0; lo < cells; lo += chunk {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			work(lo, hi)
		}(lo, min(lo+chunk, cells))
	}
	wg.Wait()
}

// store copies the values r of the cells from lo on into dst where the cell
// is present, with ±Inf (an infinite input value) made undefined.
func store(dst, r []float64, present *drg.Bitmap, lo int) {
	r = r[:len(dst)]
	for i := range dst {
		if present.Get(lo + i) {
			dst[i] = fin(r[i])
		}
	}
}

// machine holds the vectors of one evaluation: views[i] is the current
// block of register, input or constant i.
type machine struct {
	views  [][]float64
	regs   [][]float64
	consts [][]float64
}

func (e *Expr) newMachine() *machine {
	m := &machine{views: make([][]float64, e.nreg+len(e.inputs)+len(e.consts))}
	buf := make([]float64, (e.nreg+len(e.consts))*block)
	for r := 0; r < e.nreg; r++ {
		m.regs = append(m.regs, buf[r*block:(r+1)*block:(r+1)*block])
	}
	for k, v := range e.consts {
		c := buf[(e.nreg+k)*block : (e.nreg+k+1)*block : (e.nreg+k+1)*block]
		for i := range c {
			c[i] = v
		}
		m.consts = append(m.consts, c)
	}
	return m
}

var nan = math.NaN()

// fin returns x, or NaN when x is ±Inf (x-x is 0 for a finite x and NaN
// for ±Inf and NaN).
func fin(x float64) float64 {
	if x-x != 0 {
		return nan
	}
	return x
}

// truth returns 1 for true and 0 for false.
func truth(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// run evaluates e on cells [lo, hi) (at most one block) reading the input
// columns cols and returns the block of results.
func (m *machine) run(e *Expr, cols [][]float64, lo, hi int) []float64 {
	n := hi - lo
	v := m.views
	for r, buf := range m.regs {
		v[r] = buf[:n]
	}
	for i, col := range cols {
		v[e.nreg+i] = col[lo:hi]
	}
	for k, c := range m.consts {
		v[e.nreg+len(cols)+k] = c[:n]
	}
	for _, s := range e.code {
		d := v[s.dst]
		a := v[s.a][:len(d)]
		switch s.op {
		case opNeg:
			for i := range d {
				d[i] = -a[i]
			}
		case opAbs:
			for i := range d {
				d[i] = math.Abs(a[i])
			}
		case opSqrt:
			for i := range d {
				d[i] = math.Sqrt(a[i])
			}
		case opLog:
			for i := range d {
				d[i] = fin(math.Log(a[i]))
			}
		case opLog2:
			for i := range d {
				d[i] = fin(math.Log2(a[i]))
			}
		case opLog10:
			for i := range d {
				d[i] = fin(math.Log10(a[i]))
			}
		case opExp:
			for i := range d {
				d[i] = fin(math.Exp(a[i]))
			}
		case opFloor:
			for i := range d {
				d[i] = math.Floor(a[i])
			}
		case opCeil:
			for i := range d {
				d[i] = math.Ceil(a[i])
			}
		case opNot:
			for i := range d {
				d[i] = 1 - a[i] // NaN stays NaN
			}
		default:
			m.binary(s, d, a, v[s.b][:len(d)], v)
		}
	}
	return v[e.result]
}

// binary runs a step with two operands (and the select).
func (m *machine) binary(s step, d, a, b []float64, v [][]float64) {
	switch s.op {
	case opAdd:
		for i := range d {
			d[i] = fin(a[i] + b[i])
		}
	case opSub:
		for i := range d {
			d[i] = fin(a[i] - b[i])
		}
	case opMul:
		for i := range d {
			d[i] = fin(a[i] * b[i])
		}
	case opDiv:
		for i := range d {
			d[i] = fin(a[i] / b[i]) // x/0 is ±Inf or NaN: undefined
		}
	case opPow:
		for i := range d {
			x, y := a[i], b[i]
			if x != x || y != y {
				d[i] = nan // math.Pow(NaN, 0) is 1; undefined stays undefined
			} else {
				d[i] = fin(math.Pow(x, y))
			}
		}
	case opMin:
		for i := range d {
			d[i] = math.Min(a[i], b[i])
		}
	case opMax:
		for i := range d {
			d[i] = math.Max(a[i], b[i])
		}
	case opLt, opLe, opGt, opGe, opEq, opNe:
		compare(s.op, d, a, b)
	case opAnd:
		for i := range d {
			x, y := a[i], b[i]
			switch {
			case x == 0 || y == 0:
				d[i] = 0
			case x != x || y != y:
				d[i] = nan
			default:
				d[i] = 1
			}
		}
	case opOr:
		for i := range d {
			x, y := a[i], b[i]
			switch {
			case x == 1 || y == 1:
				d[i] = 1
			case x != x || y != y:
				d[i] = nan
			default:
				d[i] = 0
			}
		}
	case opSelect:
		c := v[s.cond][:len(d)]
		for i := range d {
			switch x := c[i]; {
			case x == 1:
				d[i] = a[i]
			case x == 0:
				d[i] = b[i]
			default:
				d[i] = nan
			}
		}
	}
}

// compare runs a comparison step: undefined when an operand is undefined.
func compare(op opcode, d, a, b []float64) {
	for i := range d {
		x, y := a[i], b[i]
		if x != x || y != y {
			d[i] = nan
			continue
		}
		switch op {
		case opLt:
			d[i] = truth(x < y)
		case opLe:
			d[i] = truth(x <= y)
		case opGt:
			d[i] = truth(x > y)
		case opGe:
			d[i] = truth(x >= y)
		case opEq:
			d[i] = truth(x == y)
		default:
			d[i] = truth(x != y)
		}
	}
}
