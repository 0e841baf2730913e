package testsites

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// newBookshop: a GET search form, results as rows of an HTML table, "Next ›" links with
// rel=next, a no-result page that does not echo the query.
func newBookshop() *Site {
	attrs := []string{"title", "author", "year", "language", "price"}
	recs, _ := bookRecords(0, attrs)
	s := &Site{
		Name:        "bookshop",
		Description: "Pemberton Books",
		Kind:        "book",
		FormPath:    "/",
		Method:      "GET",
		PageSize:    20,
		Attributes:  attrs,
		Fields: []Field{
			{Name: "q", Type: "search", Attributes: []string{"title", "author"}, Match: MatchWords, Keyword: true},
			{Name: "lang", Type: "select", Attributes: []string{"language"}, Match: MatchExact},
			{Name: "sort", Type: "select", Match: MatchNone},
		},
		Features: []string{FeatureGET, FeatureTable, FeatureNextLink, FeatureNoResults},
		Records:  recs,
	}
	langs := distinct(recs, "language")
	s.search = func(v url.Values) ([]Record, string) {
		res := sortRecords(filter(s.Records, s.Fields, v), v.Get("sort"))
		if len(res) == 0 {
			return nil, "No books matched your search."
		}
		return res, ""
	}
	form := func(v url.Values) string {
		return fmt.Sprintf(`<form id="search" class="searchbar" action="/search" method="get" role="search">
<label for="q">Search books</label>
<input type="search" id="q" name="q" value="%s" placeholder="Title or author">
<label for="lang">Language</label>
<select id="lang" name="lang"><option value="">All languages</option>%s</select>
<label for="sort">Sort by</label>
<select id="sort" name="sort">%s</select>
<button type="submit">Search</button>
</form>`, esc(v.Get("q")), options(langs, langs, v.Get("lang")),
			options([]string{"", "title", "year"}, []string{"Popularity", "Title", "Year"}, v.Get("sort")))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		b.WriteString("<h1>Find your next book</h1>\n" + form(url.Values{}))
		b.WriteString("\n<section class=\"promo\"><h2>Staff picks</h2><ul>")
		for _, rec := range s.Records[:5] {
			fmt.Fprintf(&b, "<li>%s</li>", esc(rec.Values["title"]))
		}
		b.WriteString("</ul></section>")
		writePage(w, http.StatusOK, s.Description, "Search", b.String())
	})
	mux.HandleFunc("GET /search", func(w http.ResponseWriter, r *http.Request) {
		v := r.URL.Query()
		res, msg := s.search(v)
		var b strings.Builder
		b.WriteString(form(v))
		if len(res) == 0 {
			fmt.Fprintf(&b, "\n<h1>Search</h1>\n<p class=\"notice\">%s</p>", esc(msg))
			writePage(w, http.StatusOK, s.Description, "Search", b.String())
			return
		}
		p := pageParam(v, "page")
		page, pages := pageOf(res, p, s.PageSize)
		if q := strings.TrimSpace(v.Get("q")); q != "" {
			fmt.Fprintf(&b, "\n<h1>Results for “%s”</h1>", esc(q))
		} else {
			b.WriteString("\n<h1>All books</h1>")
		}
		lo := (p - 1) * s.PageSize
		fmt.Fprintf(&b, "\n<p class=\"count\">Showing %d–%d of %d books</p>", min(lo+1, len(res)), lo+len(page), len(res))
		b.WriteString("\n<table class=\"results\"><thead><tr><th>Title</th><th>Author</th><th>Year</th><th>Language</th><th>Price</th><th></th></tr></thead>\n<tbody>\n")
		for _, rec := range page {
			id := strings.TrimPrefix(rec.ID, "book-")
			fmt.Fprintf(&b, `<tr data-record="%s"><td><a href="/book/%s" data-field="title">%s</a></td><td data-field="author">%s</td><td data-field="year">%s</td><td data-field="language">%s</td><td class="price" data-field="price">%s</td><td><button type="button" class="cart">Add to cart</button></td></tr>`+"\n",
				rec.ID, id, esc(rec.Values["title"]), esc(rec.Values["author"]), esc(rec.Values["year"]),
				esc(rec.Values["language"]), esc(rec.Values["price"]))
		}
		b.WriteString("</tbody></table>\n<nav class=\"pager\">")
		if p > 1 {
			fmt.Fprintf(&b, `<a rel="prev" href="/search?%s">‹ Previous</a> `, esc(with(v, "page", fmt.Sprint(p-1)).Encode()))
		}
		fmt.Fprintf(&b, "<span>Page %d of %d</span>", p, pages)
		if p < pages {
			fmt.Fprintf(&b, ` <a rel="next" href="/search?%s">Next ›</a>`, esc(with(v, "page", fmt.Sprint(p+1)).Encode()))
		}
		b.WriteString("</nav>")
		writePage(w, http.StatusOK, s.Description, "Results", b.String())
	})
	staticPages(mux, s, "/book/")
	s.Handler = s.serve(mux)
	return s
}
