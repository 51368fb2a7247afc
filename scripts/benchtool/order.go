package main

import (
	"fmt"
	"sort"
)

// Edge says that the rows of table Child refer to the rows of table Parent
// (a foreign key).
type Edge struct{ Child, Parent string }

// LoadOrder returns tables in an order in which each table comes after
// every other table of the list it refers to, so that CSV files can be
// loaded one after the other with the foreign keys checked: a topological
// sort, ties broken by the order of tables. References to tables outside
// the list and a table's references to itself are ignored. A cycle is an
// error.
func LoadOrder(tables []string, edges []Edge) ([]string, error) {
	pos := map[string]int{}
	for i, t := range tables {
		pos[t] = i
	}
	parents := map[string]map[string]bool{}
	for _, e := range edges {
		_, okC := pos[e.Child]
		_, okP := pos[e.Parent]
		if !okC || !okP || e.Child == e.Parent {
			continue
		}
		if parents[e.Child] == nil {
			parents[e.Child] = map[string]bool{}
		}
		parents[e.Child][e.Parent] = true
	}
	done := map[string]bool{}
	var out []string
	for len(out) < len(tables) {
		var ready []string
		for _, t := range tables {
			if done[t] {
				continue
			}
			ok := true
			for p := range parents[t] {
				if !done[p] {
					ok = false
					break
				}
			}
			if ok {
				ready = append(ready, t)
			}
		}
		if len(ready) == 0 {
			return nil, fmt.Errorf("load order: the foreign keys of the tables form a cycle")
		}
		sort.Slice(ready, func(i, j int) bool { return pos[ready[i]] < pos[ready[j]] })
		done[ready[0]] = true
		out = append(out, ready[0])
	}
	return out, nil
}
