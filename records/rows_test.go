package records

import (
	"strings"
	"testing"
)

// TestNonRecordRows checks that the rows of a comparison table whose data cells hold
// only headings (a group title repeated in every column) or nothing at all (a row label
// without values) are no records, while a row with a heading and a value in its cells
// and the rows of values stay records.
func TestNonRecordRows(t *testing.T) {
	row := func(label string, cells ...string) string {
		var b strings.Builder
		b.WriteString(`<tr><th class="label">` + label + `</th>`)
		for _, c := range cells {
			b.WriteString(`<td class="cell">` + c + `</td>`)
		}
		b.WriteString(`</tr>`)
		return b.String()
	}
	values := row("Author", "<div>Dickens</div>", "<div>Dickens</div>", "<div>Dickens, ed.</div>") +
		row("Pages", "<div>Dickens 1st ed. 624</div>", "<div>Dickens 2nd ed. 352</div>", "<div>Dickens 3rd ed. 688</div>") +
		row("Price", "<div>$12 Dickens paperback</div>", "<div>$9 Dickens pocket</div>", "<div>$15 Dickens cloth</div>")
	tests := []struct {
		name  string
		group string
		want  int // records of the table
	}{
		{"heading row", row("Chapter", "<h2>Edition</h2>", "<h2>Edition</h2>", "<h2>Edition</h2>"), 3},
		{"row without values", row("Discounts", `<div class="v"></div>`, `<div class="v"></div>`, `<div class="v"></div>`), 3},
		{"heading and value", row("Edition", "<h2>First</h2><div>Dickens 1850</div>", "<h2>Second</h2><div>Dickens 1860</div>", "<h2>Third</h2><div>Dickens 1870</div>"), 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString(`<html><body><main><table class="compare">`)
			for range 2 {
				b.WriteString(`<tbody class="group">` + tc.group + values + `</tbody>`)
			}
			b.WriteString(`</table></main></body></html>`)
			got := recordPaths(t, b.String(), RegionsAll)
			if len(got) != 2*tc.want {
				t.Errorf("%d records %v, want %d", len(got), got, 2*tc.want)
			}
			for _, xp := range got {
				if !strings.Contains(xp, "/tr[") {
					t.Errorf("record %s is no table row", xp)
				}
			}
		})
	}
}

// TestHeadingRowsOfResults checks that a table whose every row holds its values in
// headings (a title in h3, an author in h4) keeps its rows: a heading row titles the
// rows after it, and here none follows that is not made alike.
func TestHeadingRowsOfResults(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><body><h1>Results for dickens</h1><table class="results">`)
	for _, title := range []string{"Bleak House", "Hard Times", "Little Dorrit", "Our Mutual Friend"} {
		b.WriteString(`<tr><td><h3>` + title + `</h3></td><td><h4>Charles Dickens</h4></td></tr>`)
	}
	b.WriteString(`</table></body></html>`)
	_, got := recordXPaths(t, []Page{{Name: "results", HTML: []byte(b.String()), Terms: []string{"dickens"}}}, RegionsBest, "")
	if len(got) != 4 {
		t.Errorf("%d records %v, want the 4 rows", len(got), got)
	}
}
