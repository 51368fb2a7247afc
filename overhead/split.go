package overhead

import "math"

// finish derives T_o and splits it (see Analyze): rule categories as
// measured; loss of parallelism paid first for the work claims Λ_x out of
// the work excess X, then for the waiting claims Λ_w out of synchronization
// and, for what synchronization lacks, out of what is left of X;
// unidentified = T_o − identified.
// Every figure is first put on one binary grid so that the sums are exact.
func (c *config) finish(e *expStats) {
	if !e.defined {
		c.undefined(e)
		return
	}
	e.ideal = c.ts / e.p
	round := gridOf(e)
	e.tp, e.ideal, e.tmax = round(e.tp), round(e.ideal), round(e.tmax)
	var ruleSum float64
	for k := range e.sub {
		e.sub[k] = round(e.sub[k])
	}
	for _, k := range OverheadCategories() {
		if k == LossOfParallelism {
			continue
		}
		e.cat[k] = 0
		for sk, v := range e.sub {
			if sk.cat == k {
				e.cat[k] += v
			}
		}
		ruleSum += e.cat[k]
	}
	e.waitClaim, e.workClaim = 0, 0
	for j := range e.regions {
		r := &e.regions[j]
		if r.claim = round(r.claim); r.fromWait {
			e.waitClaim += r.claim
		} else {
			e.workClaim += r.claim
		}
	}
	e.work = e.tp - ruleSum
	e.excess = e.work - e.ideal
	e.to = e.tp - e.ideal
	xPos := math.Max(0, e.excess)
	paidWork := math.Min(e.workClaim, xPos)
	fromSync := math.Min(e.waitClaim, math.Max(0, e.cat[Synchronization]))
	fromWork := math.Min(e.waitClaim-fromSync, xPos-paidWork)
	c.pay(e, false, paidWork, round)
	c.pay(e, true, fromSync+fromWork, round)
	c.shrinkSync(e, fromSync, round)
	e.cat[LossOfParallelism] = paidWork + fromSync + fromWork
	e.unident = e.excess - paidWork - fromWork
	e.identified = 0
	for _, k := range OverheadCategories() {
		e.identified += e.cat[k]
	}
	for j := range e.regions {
		r := &e.regions[j]
		r.time = round(r.time)
		if r.cls.cat != Computation {
			r.overhead = r.time
		}
	}
	c.scaleSyncRegions(e, fromSync)
}

// undefined marks an experiment whose view holds no process.
func (c *config) undefined(e *expStats) {
	nan := math.NaN()
	e.tp, e.ideal, e.to, e.identified, e.unident, e.tmax = nan, nan, nan, nan, nan, nan
	for _, k := range OverheadCategories() {
		e.cat[k] = nan
	}
}

// gridOf returns the rounding to the experiment's grid q = 2^(x−52), 2^x
// being above twice the sum of the magnitudes of its figures.
func gridOf(e *expStats) func(float64) float64 {
	bound := math.Abs(e.tp) + math.Abs(e.ideal) + math.Abs(e.tmax)
	for _, v := range e.sub {
		bound += math.Abs(v)
	}
	for _, r := range e.regions {
		bound += math.Abs(r.time) + math.Abs(r.claim)
	}
	if bound *= 2; !(bound > 0) || math.IsInf(bound, 0) {
		return func(x float64) float64 { return x }
	}
	_, x := math.Frexp(bound)
	q := math.Ldexp(1, x-52)
	return func(v float64) float64 { return math.Round(v/q) * q }
}

// pay gives the regions whose claims are paid from one source (wait: the
// waiting for code others ran; else the work excess) their loss: the amount
// paid shared in proportion to the claims, the rounding of the shares
// absorbed by the last, so that the losses add up to the amount exactly.
func (c *config) pay(e *expStats, wait bool, amount float64, round func(float64) float64) {
	claims := e.workClaim
	if wait {
		claims = e.waitClaim
	}
	var sum float64
	last := -1
	for j := range e.regions {
		r := &e.regions[j]
		if r.kind == "" || r.fromWait != wait {
			continue
		}
		if claims > 0 {
			r.loss = round(r.claim * amount / claims)
		}
		sum += r.loss
		last = j
	}
	if last >= 0 && sum != amount {
		e.regions[last].loss += amount - sum
	}
	for j := range e.regions {
		r := &e.regions[j]
		if r.kind != "" && r.fromWait == wait {
			r.overhead = r.loss
			e.sub[catSub{LossOfParallelism, r.kind}] += r.loss
		}
	}
}

// shrinkSync takes the waiting paid as loss of parallelism out of the
// synchronization category, its sub-categories in proportion, so that they
// still add up to it.
func (c *config) shrinkSync(e *expStats, paid float64, round func(float64) float64) {
	s := e.cat[Synchronization]
	if paid == 0 || s == 0 {
		return
	}
	left := s - paid
	var keys []catSub
	var sum float64
	for k, v := range e.sub {
		if k.cat == Synchronization {
			keys = append(keys, k)
			e.sub[k] = round(v * left / s)
			sum += e.sub[k]
		}
	}
	if len(keys) > 0 {
		big := keys[0]
		for _, k := range keys {
			if e.sub[k] > e.sub[big] || (e.sub[k] == e.sub[big] && k.sub < big.sub) {
				big = k
			}
		}
		e.sub[big] += left - sum
	}
	e.cat[Synchronization] = left
}

// scaleSyncRegions gives the synchronization regions the overhead left to
// them once the waiting caused by loss of parallelism is paid out.
func (c *config) scaleSyncRegions(e *expStats, paid float64) {
	s := e.cat[Synchronization] + paid
	if paid == 0 || s == 0 {
		return
	}
	f := e.cat[Synchronization] / s
	for j := range e.regions {
		if r := &e.regions[j]; r.cls.cat == Synchronization {
			r.overhead = r.time * f
		}
	}
}
