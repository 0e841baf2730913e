package schema

import (
	"fmt"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/trawl-dev/trawl/records"
)

// A legacy page: Windows-1252, a header row of <th> without <thead>, a colspan, and a
// nested table inside a cell (its rows are not headers).
const legacyPage = "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\"></head><body>" +
	"<table><tr><th>Titre</th><th colspan=\"2\">Auteur / Ann\xe9e</th><th>Prix</th></tr>%s</table></body></html>"

func TestHeaderLabels(t *testing.T) {
	var rows strings.Builder
	var recsIn []records.Record
	books := [][3]string{{"Les Mis\xe9rables", "Hugo", "1862"}, {"Germinal", "Zola", "1885"}, {"Candide", "Voltaire", "1759"}, {"Nana", "Zola", "1880"}}
	for i, b := range books {
		fmt.Fprintf(&rows, "<tr><td><a href=\"/l/%d\">%s</a></td><td>%s</td><td>%s</td><td><table><tr><th>x</th></tr></table>%d,00 \x80</td></tr>", i, b[0], b[1], b[2], 10+i)
		recsIn = append(recsIn, records.Record{Page: "p.html", XPath: fmt.Sprintf("/html[1]/body[1]/table[1]/tbody[1]/tr[%d]", i+2), Leaves: []records.Leaf{
			{Path: "td[1]/a", Text: b[0]}, {Path: "td[2]", Text: b[1]}, {Path: "td[3]", Text: b[2]},
			{Path: "td[4]/table/tbody/tr/th", Text: "x"}, {Path: "td[4]", Text: fmt.Sprintf("%d,00 \x80", 10+i)},
		}})
	}
	page := []byte(fmt.Sprintf(legacyPage, rows.String()))
	s, err := Build(t.Context(), recsIn, Input{Page: func(string) ([]byte, error) { return page, nil }}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range s.Features {
		got[f.Key] = f.Label + "/" + string(f.Type)
	}
	want := map[string]string{
		"td[1]/a#1": "Titre/string", "td[2]#1": "Auteur / Année/string", "td[3]#1": "Auteur / Année/year", "td[4]#1": "Prix/price",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("feature %s: label/type %q, want %q (all: %v)", k, got[k], w, got)
		}
	}
	if f := s.Feature("titre"); f == nil || f.Samples[0] == "" || !strings.Contains(strings.Join(f.Samples, " "), "Misérables") {
		t.Errorf("titre feature = %+v, want the Windows-1252 title decoded", f)
	}
}

func TestResolveXPath(t *testing.T) {
	doc, err := parseHTML([]byte("<html><body><div>a</div><div><ul><li>1</li><li>2</li></ul></div></body></html>"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		xp, want string
	}{
		{"/html[1]/body[1]/div[2]/ul[1]/li[2]", "2"},
		{"/html/body/div[2]/ul/li", "1"},
		{"/html[1]/body[1]/div[3]", ""},
		{"//li", ""},
		{"/html[1]/body[1]/div[x]", ""},
		{"/html[1]/body[1]/div[@id='a']", ""},
	}
	for _, tc := range tests {
		n := resolveXPath(doc, tc.xp)
		got := ""
		if n != nil {
			got = strings.TrimSpace(goquery.Text(goquery.NewDocumentFromNode(n).Selection, &cellText))
		}
		if got != tc.want {
			t.Errorf("resolveXPath(%q) = %q, want %q", tc.xp, got, tc.want)
		}
	}
}
