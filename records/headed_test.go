package records

import (
	"fmt"
	"strings"
	"testing"
)

// novels is a list of records whose words are the query's (the best region), for the
// tests of the regions that hold no signifier.
func novels(q string) string {
	titles := []string{"Bleak House", "Hard Times", "Little Dorrit", "Great Expectations", "Our Mutual Friend"}
	var b strings.Builder
	b.WriteString(`<ul class="results">`)
	for i, title := range titles {
		fmt.Fprintf(&b, `<li class="hit"><a href="/b/%d">%s</a> <span class="author">%s, %d</span> <span class="shelf">%s shelf %d</span></li>`,
			i, title, q, 1850+i, q, i+1)
	}
	b.WriteString(`</ul>`)
	return b.String()
}

// recordPaths extracts page with the query term dickens and returns the XPaths of its
// records.
func recordPaths(t *testing.T, page string, regions RegionPolicy) []string {
	t.Helper()
	o := DefaultOptions()
	o.Regions = regions
	_, recs, err := Extract(t.Context(), []Page{{Name: "p", HTML: []byte(page), Terms: []string{"dickens"}}}, o)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		out = append(out, r.XPath)
	}
	return out
}

// TestHeadedTableRows checks that the body rows of a table with column headers are
// records under RegionsAll although their words are no signifiers (a price table
// beside the results), and that the rows of a table without header cells, a calendar
// and a header row that does not span the rows' columns are left alone.
func TestHeadedTableRows(t *testing.T) {
	rows := `<tr><td>Flight costs</td><td>150</td><td>300</td></tr><tr><td>Hotel ratings</td><td>4</td><td>20</td></tr>`
	tests := []struct {
		name  string
		table string
		want  bool
	}{
		{"head row in thead", `<table><thead><tr><th>Item</th><th>Lowest</th><th>Highest</th></tr></thead><tbody>` + rows + `</tbody></table>`, true},
		{"first row of header cells", `<table><tbody><tr><th>Item</th><th>Lowest</th><th>Highest</th></tr>` + rows + `</tbody></table>`, true},
		{"no header cells (a layout table)", `<table><tbody>` + rows + `</tbody></table>`, false},
		{"header of other columns", `<table><thead><tr><th>Item</th><th>Range</th></tr></thead><tbody>` + rows + `</tbody></table>`, false},
		{"a calendar (day numbers only)", `<table><thead><tr><th>Mo</th><th>Tu</th><th>We</th></tr></thead><tbody><tr><td>1</td><td>2</td><td>3</td></tr><tr><td>8</td><td>9</td><td>10</td></tr></tbody></table>`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			page := `<html><body><h1>Results</h1>` + novels("Dickens") + `<h2>Prices</h2>` + tc.table + `</body></html>`
			got := recordPaths(t, page, RegionsAll)
			rowsFound := 0
			for _, xp := range got {
				if strings.Contains(xp, "/tr[") {
					rowsFound++
				}
			}
			if want := map[bool]int{true: 2, false: 0}[tc.want]; rowsFound != want {
				t.Errorf("%d table rows among the records %v, want %d", rowsFound, got, want)
			}
			if len(got)-rowsFound != 5 {
				t.Errorf("%d list records, want 5: %v", len(got)-rowsFound, got)
			}
		})
	}
	// The default policy keeps the best region only.
	page := `<html><body>` + novels("Dickens") + tests[0].table + `</body></html>`
	if got := recordPaths(t, page, RegionsBest); len(got) != 5 {
		t.Errorf("best region: %d records, want the 5 list records: %v", len(got), got)
	}
}
