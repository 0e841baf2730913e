package testsites

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// newCatalogue: an old-style GET form (labels in table cells, two text boxes for title
// and author), records as div blocks, numbered page links only (no "next" word), and a
// soft error: no results gives the result layout with "0 results".
func newCatalogue() *Site {
	attrs := []string{"title", "author", "year", "price"}
	recs, _ := bookRecords(0, attrs)
	s := &Site{
		Name:        "catalogue",
		Description: "Hartley & Sons Booksellers",
		Kind:        "book",
		FormPath:    "/catalogue",
		Method:      "GET",
		PageSize:    10,
		Attributes:  attrs,
		Fields: []Field{
			{Name: "t", Type: "text", Attributes: []string{"title"}, Match: MatchWords, Keyword: true},
			{Name: "a", Type: "text", Attributes: []string{"author"}, Match: MatchWords},
		},
		Features: []string{FeatureGET, FeatureList, FeatureNumbered, FeatureSoftError},
		Records:  recs,
	}
	s.search = func(v url.Values) ([]Record, string) {
		res := filter(s.Records, s.Fields, v)
		if len(res) == 0 {
			return nil, "0 results"
		}
		return res, ""
	}
	form := func(v url.Values) string {
		return fmt.Sprintf(`<form action="/catalogue/results" method="get" name="finder">
<table class="form">
<tr><td>Title:</td><td><input name="t" size="30" value="%s"></td></tr>
<tr><td>Author:</td><td><input name="a" size="30" value="%s"></td></tr>
<tr><td></td><td><input type="submit" name="go" value="Search"></td></tr>
</table>
</form>`, esc(v.Get("t")), esc(v.Get("a")))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/catalogue", http.StatusFound)
	})
	mux.HandleFunc("GET /catalogue", func(w http.ResponseWriter, r *http.Request) {
		writePage(w, http.StatusOK, s.Description, "Catalogue",
			"<h1>Our catalogue</h1>\n<p>Fill in the title, the author, or both.</p>\n"+form(url.Values{}))
	})
	mux.HandleFunc("GET /catalogue/results", func(w http.ResponseWriter, r *http.Request) {
		v := r.URL.Query()
		res, _ := s.search(v)
		p := pageParam(v, "p")
		page, pages := pageOf(res, p, s.PageSize)
		var b strings.Builder
		b.WriteString("<div class=\"layout\"><div class=\"side\">" + form(v) + "</div>\n<div class=\"content\">\n")
		fmt.Fprintf(&b, "<p class=\"summary\">%d results</p>\n<div class=\"results\">\n", len(res))
		for _, rec := range page {
			id := strings.TrimPrefix(rec.ID, "book-")
			fmt.Fprintf(&b, `<div class="result" data-record="%s"><div class="r-title"><a data-field="title" href="/catalogue/item/%s">%s</a></div><div class="r-by">by <span data-field="author">%s</span>`,
				rec.ID, id, esc(rec.Values["title"]), esc(rec.Values["author"]))
			if y := rec.Values["year"]; y != "" {
				fmt.Fprintf(&b, ` (<span data-field="year">%s</span>)`, esc(y))
			}
			fmt.Fprintf(&b, `</div><div class="r-price">Our price: <span data-field="price">%s</span></div></div>`+"\n", esc(rec.Values["price"]))
		}
		b.WriteString("</div>\n")
		if pages > 1 {
			b.WriteString(`<div class="pages">Pages: `)
			for _, n := range pageWindow(p, pages) {
				switch {
				case n == 0:
					b.WriteString(" … ")
				case n == p:
					fmt.Fprintf(&b, " <b>%d</b> ", n)
				default:
					fmt.Fprintf(&b, ` <a href="/catalogue/results?%s">%d</a> `, esc(with(v, "p", fmt.Sprint(n)).Encode()), n)
				}
			}
			b.WriteString("</div>\n")
		}
		b.WriteString("</div></div>")
		writePage(w, http.StatusOK, s.Description, "Results", b.String())
	})
	staticPages(mux, s, "/catalogue/item/")
	s.Handler = s.serve(mux)
	return s
}

// pageWindow lists the page numbers a numbered pager shows: the first, the last, and
// the current page ± 3; 0 stands for an ellipsis.
func pageWindow(p, pages int) []int {
	var out []int
	last := 0
	for n := 1; n <= pages; n++ {
		if n == 1 || n == pages || (n >= p-3 && n <= p+3) {
			if last != 0 && n > last+1 {
				out = append(out, 0)
			}
			out = append(out, n)
			last = n
		}
	}
	return out
}
