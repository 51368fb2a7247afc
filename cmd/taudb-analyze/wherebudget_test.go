package main

import (
	"errors"
	"testing"
	"time"

	"github.com/expr-lang/expr"
)

// TestWhereBudget runs four nested all over 1..1000 (10¹² steps), with
// the range built once (let) and in every predicate: each fails with a
// budget error (steps, or items built) in well under a second. Three nested over 1..99
// (970,299 + 9,801 + 99 = 980,199 predicate evaluations, under the
// budget of 10⁶) runs to the end and gives true; over 1..100 (1,010,100
// evaluations) it does not.
func TestWhereBudget(t *testing.T) {
	opts := []expr.Option{expr.Env(trialEnv{}), expr.AsBool()}
	for src, want := range map[string]error{
		`let r = 1..1000; all(r, {all(r, {all(r, {all(r, {# > 0})})})})`:        errWhereBudget,
		`all(1..1000, {all(1..1000, {all(1..1000, {all(1..1000, {# > 0})})})})`: errWhereMemory,
	} {
		start := time.Now()
		p, err := compileWhere(src, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.run(trialEnv{}); !errors.Is(err, want) {
			t.Errorf("%s: error %v, want %v", src, err, want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %v", src, d)
		}
	}
	for n, want := range map[string]bool{"99": true, "100": false} {
		p, err := compileWhere(`let r = 1..`+n+`; all(r, {all(r, {all(r, {# > 0})})})`, opts...)
		if err != nil {
			t.Fatal(err)
		}
		out, err := p.run(trialEnv{})
		if want && (err != nil || out != true) {
			t.Errorf("1..%s: %v, %v; want true", n, out, err)
		}
		if !want && !errors.Is(err, errWhereBudget) {
			t.Errorf("1..%s: %v, %v; want the budget error", n, out, err)
		}
	}
}
