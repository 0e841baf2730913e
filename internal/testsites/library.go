package testsites

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// newLibrary: a POST search form with a CSRF token tied to a session cookie; records as
// list items with "Label: value" lines; pagination by a small POST form ("Next page");
// a no-result page that echoes the query; an empty keyword is refused.
func newLibrary() *Site {
	attrs := []string{"title", "author", "year", "series"}
	recs, _ := bookRecords(1200, attrs)
	s := &Site{
		Name:        "library",
		Description: "Municipal Library Catalogue",
		Kind:        "book",
		FormPath:    "/",
		Method:      "POST",
		PageSize:    10,
		Attributes:  attrs,
		Fields: []Field{
			{Name: "query", Type: "text", Attributes: []string{"title", "author", "series"}, Match: MatchWords, Keyword: true},
			{Name: "year_from", Type: "number", Attributes: []string{"year"}, Match: MatchMin},
			{Name: "year_to", Type: "number", Attributes: []string{"year"}, Match: MatchMax},
		},
		Features: []string{FeaturePOST, FeatureCSRF, FeatureSession, FeatureList, FeatureLabelValue,
			FeatureNextLink, FeatureEchoError, FeatureRequiredText},
		Records: recs,
	}
	s.search = func(v url.Values) ([]Record, string) {
		q := strings.TrimSpace(v.Get("query"))
		if q == "" {
			return nil, "Please enter one or more keywords."
		}
		res := filter(s.Records, s.Fields, v)
		if len(res) == 0 {
			return nil, fmt.Sprintf("Your search for “%s” returned no results.", q)
		}
		return res, ""
	}

	var mu sync.Mutex
	sessions := map[string]string{} // session id → CSRF token
	newToken := func() string {
		return rand.Text() // 26 base32 characters, 130 bits
	}
	// session returns the token of the request's session, creating a session if needed.
	session := func(w http.ResponseWriter, r *http.Request) string {
		mu.Lock()
		defer mu.Unlock()
		if c, err := r.Cookie("libsid"); err == nil {
			if tok, ok := sessions[c.Value]; ok {
				return tok
			}
		}
		sid, tok := newToken(), newToken()
		sessions[sid] = tok
		http.SetCookie(w, &http.Cookie{Name: "libsid", Value: sid, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
		return tok
	}
	valid := func(r *http.Request) bool {
		c, err := r.Cookie("libsid")
		if err != nil {
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		tok, ok := sessions[c.Value]
		return ok && tok != "" && r.PostFormValue("csrf_token") == tok
	}
	form := func(tok string, v url.Values) string {
		return fmt.Sprintf(`<form method="post" action="/search" class="catalogue-search">
<input type="hidden" name="csrf_token" value="%s">
<fieldset><legend>Search the catalogue</legend>
<p><label>Keywords <input type="text" name="query" value="%s" required maxlength="100"></label></p>
<p><label>Published from <input type="number" name="year_from" value="%s" min="1000" max="2030" step="1"></label>
<label>to <input type="number" name="year_to" value="%s" min="1000" max="2030" step="1"></label></p>
<p><input type="submit" value="Find"></p>
</fieldset>
</form>`, tok, esc(v.Get("query")), esc(v.Get("year_from")), esc(v.Get("year_to")))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		tok := session(w, r)
		writePage(w, http.StatusOK, s.Description, "Catalogue",
			"<h1>Library catalogue</h1>\n<p class=\"intro\">Search our books by title, author or series.</p>\n"+form(tok, url.Values{})+
				"\n<aside><h2>Opening hours</h2><p>Monday to Saturday, 9:00–18:00.</p></aside>")
	})
	mux.HandleFunc("POST /search", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || !valid(r) {
			writePage(w, http.StatusForbidden, s.Description, "Session expired",
				`<h1>Session expired</h1><p class="alert">Your session has expired. Please <a href="/">reload the search page</a> and try again.</p>`)
			return
		}
		tok := session(w, r)
		v := r.PostForm
		res, msg := s.search(v)
		var b strings.Builder
		b.WriteString(form(tok, v))
		if len(res) == 0 {
			q := strings.TrimSpace(v.Get("query"))
			if q == "" {
				fmt.Fprintf(&b, "\n<div class=\"alert\"><p>%s</p></div>", esc(msg))
			} else {
				fmt.Fprintf(&b, "\n<div class=\"alert\"><p>Your search for “<em>%s</em>” returned no results.</p><p>Check the spelling or try fewer words.</p></div>", esc(q))
			}
			writePage(w, http.StatusOK, s.Description, "No results", b.String())
			return
		}
		p := pageParam(v, "page")
		page, pages := pageOf(res, p, s.PageSize)
		fmt.Fprintf(&b, "\n<h2 class=\"summary\">%d titles found, page %d of %d</h2>\n<ol class=\"hits\" start=\"%d\">\n", len(res), p, pages, (p-1)*s.PageSize+1)
		for _, rec := range page {
			fmt.Fprintf(&b, `<li class="hit" data-record="%s"><h3 data-field="title">%s</h3><p class="detail" data-field="author">Author: %s</p>`,
				rec.ID, esc(rec.Values["title"]), esc(rec.Values["author"]))
			if y := rec.Values["year"]; y != "" {
				fmt.Fprintf(&b, `<p class="detail" data-field="year">Published: %s</p>`, esc(y))
			}
			if sr := rec.Values["series"]; sr != "" {
				fmt.Fprintf(&b, `<p class="detail" data-field="series">Series: %s</p>`, esc(sr))
			}
			b.WriteString("<p class=\"avail\">Available</p></li>\n")
		}
		b.WriteString("</ol>\n")
		if p < pages {
			fmt.Fprintf(&b, `<form method="post" action="/search" class="pager"><input type="hidden" name="csrf_token" value="%s"><input type="hidden" name="query" value="%s"><input type="hidden" name="year_from" value="%s"><input type="hidden" name="year_to" value="%s"><input type="hidden" name="page" value="%d"><button type="submit">Next page</button></form>`,
				tok, esc(v.Get("query")), esc(v.Get("year_from")), esc(v.Get("year_to")), p+1)
		}
		writePage(w, http.StatusOK, s.Description, "Results", b.String())
	})
	staticPages(mux, s, "")
	s.Handler = s.serve(mux)
	return s
}
