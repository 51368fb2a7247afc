package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// callpathRow is one timer_callpath row of a trial, with its timer's name
// and the name stored in timer_callpath_name, if any.
type callpathRow struct {
	id, timer, parent int64 // parent 0: none
	timerName         string
	stored            sql.NullString
}

// callpathsQuery reads a trial's timer_callpath rows in id order with their
// timers' names and the names of timer_callpath_name.
const callpathsQuery = `
SELECT cp.id, cp.timer, COALESCE(cp.parent, 0), t.name, n.name
FROM timer_callpath cp
JOIN timer t ON t.id = cp.timer
LEFT JOIN timer_callpath_name n ON n.timer_callpath = cp.id
WHERE t.trial = $1
ORDER BY cp.id`

// callpathsTAUQuery is callpathsQuery for a database without
// taudb-analyze's table timer_callpath_name (one only TAU's tools wrote):
// every name is rebuilt from the parent chain, as TAU's tools do.
const callpathsTAUQuery = `
SELECT cp.id, cp.timer, COALESCE(cp.parent, 0), t.name, NULL
FROM timer_callpath cp
JOIN timer t ON t.id = cp.timer
WHERE t.trial = $1
ORDER BY cp.id`

// readCallpaths reads the callpath rows of trial id and returns them with
// the full name of each (see callpathNames).
func readCallpaths(ctx context.Context, r runner, d Dialect, id int64) ([]callpathRow, []string, error) {
	q := callpathsQuery
	if has, err := hasTable(ctx, r, d, "timer_callpath_name"); err != nil {
		return nil, nil, err
	} else if !has {
		q = callpathsTAUQuery
	}
	var rows []callpathRow
	err := r.query(ctx, q, func(scan func(...any) error) error {
		var c callpathRow
		if err := scan(&c.id, &c.timer, &c.parent, &c.timerName, &c.stored); err != nil {
			return err
		}
		rows = append(rows, c)
		return nil
	}, id)
	if err != nil {
		return nil, nil, fmt.Errorf("read timer_callpath: %w", err)
	}
	return rows, callpathNames(rows), nil
}

// callpathNames returns the full name of every row: the stored name when
// timer_callpath_name has one; else the timer's name for a row without
// parent; else the parent's full name, " => " and the timer's name, as TAU's
// tools build it. A parent that is not among the rows (or a cycle, which a
// sane database does not hold) ends the chain.
func callpathNames(rows []callpathRow) []string {
	index := make(map[int64]int, len(rows))
	for i, c := range rows {
		index[c.id] = i
	}
	names := make([]string, len(rows))
	state := make([]byte, len(rows)) // 0 new, 1 in progress, 2 done
	var name func(i int) string
	name = func(i int) string {
		switch state[i] {
		case 2:
			return names[i]
		case 1:
			return rows[i].timerName
		}
		state[i] = 1
		c := rows[i]
		s := c.timerName
		if c.stored.Valid {
			s = c.stored.String
		} else if p, ok := index[c.parent]; ok && c.parent != 0 {
			s = name(p) + drg.CallpathSeparator + c.timerName
		}
		names[i], state[i] = s, 2
		return s
	}
	for i := range rows {
		name(i)
	}
	return names
}
