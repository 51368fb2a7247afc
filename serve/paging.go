package serve

import (
	"net/http"
	"net/url"
	"strconv"
)

// PageSize is the number of rows of a table sent at a time.
const PageSize = 50

// paging is one page of a table of Total rows: rows [From, To).
type paging struct {
	Page, Pages, From, To, Total int
	// query is the request's query, to make the links to other pages.
	query url.Values
	path  string
}

// newPaging reads ?page= (from 1) for a table of total rows.
func newPaging(r *http.Request, total int) (paging, error) {
	p, err := intParam(r, "page", 1)
	if err != nil {
		return paging{}, err
	}
	pages := max(1, (total+PageSize-1)/PageSize)
	p = min(max(p, 1), pages)
	from := (p - 1) * PageSize
	return paging{Page: p, Pages: pages, From: from, To: min(from+PageSize, total), Total: total,
		query: r.URL.Query(), path: r.URL.Path}, nil
}

// Link returns the address of page p with the same other parameters.
func (pg paging) Link(p int) string {
	q := url.Values{}
	for k, v := range pg.query {
		q[k] = v
	}
	q.Del("token") // the cookie carries it
	q.Set("page", strconv.Itoa(p))
	return pg.path + "?" + q.Encode()
}

// Prev and Next are the neighbouring pages, 0 when there is none.
func (pg paging) Prev() int {
	if pg.Page > 1 {
		return pg.Page - 1
	}
	return 0
}

// Next is the following page, 0 on the last one.
func (pg paging) Next() int {
	if pg.Page < pg.Pages {
		return pg.Page + 1
	}
	return 0
}
