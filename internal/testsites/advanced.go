package testsites

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// newAdvanced: an advanced search (title, author and ISBN text boxes, language and
// decade selects, a format checkbox group, a minimum-rating radio group, a sort select);
// results in a table with a header row; a "Next" link with class=next; an error page that
// echoes the filled fields when nothing matches; an empty form is refused.
func newAdvanced() *Site {
	attrs := []string{"title", "author", "year", "language", "format", "rating", "isbn"}
	recs, _ := bookRecords(0, attrs)
	s := &Site{
		Name:        "advanced",
		Description: "Quarto Advanced Book Search",
		Kind:        "book",
		FormPath:    "/advanced",
		Method:      "GET",
		PageSize:    15,
		Attributes:  attrs,
		Fields: []Field{
			{Name: "title", Type: "text", Attributes: []string{"title"}, Match: MatchWords, Keyword: true},
			{Name: "author", Type: "text", Attributes: []string{"author"}, Match: MatchWords},
			{Name: "isbn", Type: "text", Attributes: []string{"isbn"}, Match: MatchExact},
			{Name: "language", Type: "select", Attributes: []string{"language"}, Match: MatchExact},
			{Name: "decade", Type: "select", Attributes: []string{"year"}, Match: MatchDecade},
			{Name: "format", Type: "checkbox", Attributes: []string{"format"}, Match: MatchOneOf},
			{Name: "rating", Type: "radio", Attributes: []string{"rating"}, Match: MatchMin},
			{Name: "sort", Type: "select", Match: MatchNone},
		},
		Features: []string{FeatureGET, FeatureAdvanced, FeatureTable, FeatureNextLink, FeatureEchoError},
		Records:  recs,
	}
	filled := func(v url.Values) []string {
		var out []string
		for _, f := range s.Fields {
			if f.Match == MatchNone {
				continue
			}
			for _, x := range v[f.Name] {
				if strings.TrimSpace(x) != "" {
					out = append(out, fmt.Sprintf("%s “%s”", f.Name, strings.TrimSpace(x)))
				}
			}
		}
		return out
	}
	s.search = func(v url.Values) ([]Record, string) {
		if len(filled(v)) == 0 {
			return nil, "Please fill in at least one search field."
		}
		res := sortRecords(filter(s.Records, s.Fields, v), v.Get("sort"))
		if len(res) == 0 {
			return nil, "No results for " + strings.Join(filled(v), ", ") + "."
		}
		return res, ""
	}
	langs := distinct(recs, "language")
	ds := decades(recs, 1800)
	dlabels := make([]string, len(ds))
	for i, d := range ds {
		dlabels[i] = d + "–" + d[:3] + "9"
	}
	form := func(v url.Values) string {
		var fb strings.Builder
		for _, f := range Formats {
			chk := ""
			if slices.Contains(v["format"], f) {
				chk = " checked"
			}
			fmt.Fprintf(&fb, `<label><input type="checkbox" name="format" value="%s"%s> %s</label> `, f, chk, f)
		}
		var rb strings.Builder
		for i, o := range [][2]string{{"", "Any"}, {"4", "4 stars and up"}, {"4.5", "4.5 stars and up"}} {
			chk := ""
			if v.Get("rating") == o[0] {
				chk = " checked"
			}
			fmt.Fprintf(&rb, `<label><input type="radio" name="rating" id="rating%d" value="%s"%s> %s</label> `, i, o[0], chk, o[1])
		}
		return fmt.Sprintf(`<form action="/advanced/results" method="get" id="adv">
<div class="row"><label for="title">Title</label> <input id="title" name="title" type="text" value="%s"></div>
<div class="row"><label for="author">Author</label> <input id="author" name="author" type="text" value="%s"></div>
<div class="row"><label for="isbn">ISBN</label> <input id="isbn" name="isbn" type="text" value="%s" pattern="[0-9Xx]{10}" maxlength="10" inputmode="numeric" title="10 digits"></div>
<div class="row"><label for="language">Language</label> <select id="language" name="language"><option value="">Any</option>%s</select></div>
<div class="row"><label for="decade">Publication decade</label> <select id="decade" name="decade"><option value="">Any</option>%s</select></div>
<fieldset><legend>Format</legend>%s</fieldset>
<fieldset><legend>Minimum rating</legend>%s</fieldset>
<div class="row"><label for="sort">Sort results by</label> <select id="sort" name="sort">%s</select></div>
<div class="row"><button type="submit">Search</button> <button type="reset">Clear</button></div>
</form>`, esc(v.Get("title")), esc(v.Get("author")), esc(v.Get("isbn")),
			options(langs, langs, v.Get("language")), options(ds, dlabels, v.Get("decade")), fb.String(), rb.String(),
			options([]string{"", "title", "author", "year"}, []string{"Relevance", "Title", "Author", "Year"}, v.Get("sort")))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		writePage(w, http.StatusOK, s.Description, "Home", `<h1>Quarto</h1><p><a href="/advanced">Advanced search</a></p>`)
	})
	mux.HandleFunc("GET /advanced", func(w http.ResponseWriter, r *http.Request) {
		writePage(w, http.StatusOK, s.Description, "Advanced search",
			"<h1>Advanced search</h1>\n<p class=\"hint\">Combine any of the fields below. Words in a text field must all occur.</p>\n"+form(url.Values{}))
	})
	mux.HandleFunc("GET /advanced/results", func(w http.ResponseWriter, r *http.Request) {
		v := r.URL.Query()
		res, msg := s.search(v)
		if len(res) == 0 {
			writePage(w, http.StatusOK, s.Description, "No results",
				fmt.Sprintf("<h1>Advanced search</h1>\n<p class=\"error\">%s</p>\n<p><a href=\"/advanced\">Modify your search</a></p>", esc(msg)))
			return
		}
		p := pageParam(v, "page")
		page, pages := pageOf(res, p, s.PageSize)
		var b strings.Builder
		fmt.Fprintf(&b, "<h1>Search results</h1>\n<p class=\"criteria\">You searched for %s. %d books.</p>\n", esc(strings.Join(filled(v), ", ")), len(res))
		b.WriteString("<table class=\"grid\">\n<tr><th>Title</th><th>Author</th><th>Year</th><th>Language</th><th>Format</th><th>Rating</th><th>ISBN</th></tr>\n")
		for _, rec := range page {
			fmt.Fprintf(&b, `<tr data-record="%s"><td data-field="title">%s</td><td data-field="author">%s</td><td data-field="year">%s</td><td data-field="language">%s</td><td data-field="format">%s</td><td data-field="rating">%s</td><td data-field="isbn">%s</td></tr>`+"\n",
				rec.ID, esc(rec.Values["title"]), esc(rec.Values["author"]), esc(rec.Values["year"]), esc(rec.Values["language"]),
				esc(rec.Values["format"]), esc(rec.Values["rating"]), esc(rec.Values["isbn"]))
		}
		b.WriteString("</table>\n<p class=\"paging\">")
		if p > 1 {
			fmt.Fprintf(&b, `<a class="prev" href="/advanced/results?%s">Previous</a> `, esc(with(v, "page", fmt.Sprint(p-1)).Encode()))
		}
		fmt.Fprintf(&b, "%d / %d", p, pages)
		if p < pages {
			fmt.Fprintf(&b, ` <a class="next" href="/advanced/results?%s">Next</a>`, esc(with(v, "page", fmt.Sprint(p+1)).Encode()))
		}
		b.WriteString("</p>\n<p><a href=\"/advanced\">New search</a></p>")
		writePage(w, http.StatusOK, s.Description, "Results", b.String())
	})
	s.Handler = s.serve(mux)
	return s
}
