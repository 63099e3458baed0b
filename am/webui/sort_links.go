package webui

import (
	"net/url"
	"strconv"

	"github.com/spindle-yarn/spindle/am/history"
)

// sortLinks are the stage page's column headers' links, by order: the
// first page of the same tasks in that order, ascending, or descending
// when already ascending by it (a second click turns it round). The
// order is the server's (history.TaskQuery): a page of 100,000 tasks
// sorts with no script.
func sortLinks(query url.Values) map[string]string {
	current := query.Get("sort")
	if current == "" {
		current = history.SortIndex
	}
	desc, _ := strconv.ParseBool(query.Get("desc"))
	out := map[string]string{}
	for _, order := range history.TaskSorts {
		v := url.Values{"sort": {order}}
		for _, k := range []string{"state", "length"} {
			if query.Get(k) != "" {
				v.Set(k, query.Get(k))
			}
		}
		if order == current && !desc {
			v.Set("desc", "true")
		}
		out[order] = "?" + v.Encode()
	}
	return out
}
