package testsites

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// newPortal: a page with a login form and a newsletter form next to a small search
// form. Submitting the login or the newsletter form is a violation (the site records
// it). Records are list items; the "next" link is a bare "»" with aria-label="Next
// page"; no results gives "Nothing found." without echoing the query.
func newPortal() *Site {
	attrs := []string{"title", "author", "year"}
	recs, _ := bookRecords(1000, attrs)
	s := &Site{
		Name:        "portal",
		Description: "Readers' Corner",
		Kind:        "book",
		FormPath:    "/",
		Method:      "GET",
		PageSize:    25,
		Attributes:  attrs,
		Fields: []Field{
			{Name: "keywords", Type: "text", Attributes: []string{"title", "author"}, Match: MatchWords, Keyword: true},
		},
		Features: []string{FeatureGET, FeatureList, FeatureLoginForm, FeatureNextLink, FeatureNoResults},
		Records:  recs,
	}
	s.search = func(v url.Values) ([]Record, string) {
		res := filter(s.Records, s.Fields, v)
		if len(res) == 0 {
			return nil, "Nothing found."
		}
		return res, ""
	}
	side := `<aside class="account">
<h2>Members</h2>
<form action="/login" method="post" id="login">
<label>Username <input name="username" autocomplete="username"></label>
<label>Password <input type="password" name="password" autocomplete="current-password"></label>
<label><input type="checkbox" name="remember" value="1"> Remember me</label>
<button type="submit">Log in</button>
<p><a href="/forgot">Forgot your password?</a></p>
</form>
<h2>Newsletter</h2>
<form action="/subscribe" method="post" class="newsletter">
<input type="email" name="email" placeholder="Your e-mail address" required>
<label><input type="checkbox" name="consent" value="yes" required> I agree to receive e-mails</label>
<button type="submit">Subscribe</button>
</form>
</aside>`
	search := func(v url.Values) string {
		return fmt.Sprintf(`<form action="/find" method="get" class="site-search">
<input name="keywords" value="%s" placeholder="Search our books" aria-label="Search">
<button type="submit">Go</button>
</form>`, esc(v.Get("keywords")))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		writePage(w, http.StatusOK, s.Description, "Welcome",
			"<div class=\"cols\">"+side+"\n<section class=\"main\"><h1>Welcome, reader</h1>\n"+search(url.Values{})+
				"\n<p>Reviews, reading lists and a catalogue of a thousand popular books.</p></section></div>")
	})
	mux.HandleFunc("POST /login", func(w http.ResponseWriter, r *http.Request) {
		s.violation("POST /login: the login form was submitted")
		writePage(w, http.StatusUnauthorized, s.Description, "Log in", "<p>Wrong username or password.</p>")
	})
	mux.HandleFunc("POST /subscribe", func(w http.ResponseWriter, r *http.Request) {
		s.violation("POST /subscribe: the newsletter form was submitted")
		writePage(w, http.StatusOK, s.Description, "Subscribed", "<p>Thank you.</p>")
	})
	mux.HandleFunc("GET /forgot", func(w http.ResponseWriter, r *http.Request) {
		writePage(w, http.StatusOK, s.Description, "Password", `<form action="/forgot" method="post"><label>E-mail <input type="email" name="email"></label><button>Send</button></form>`)
	})
	mux.HandleFunc("POST /forgot", func(w http.ResponseWriter, r *http.Request) {
		s.violation("POST /forgot: the password-recovery form was submitted")
		writePage(w, http.StatusOK, s.Description, "Password", "<p>Sent.</p>")
	})
	mux.HandleFunc("GET /find", func(w http.ResponseWriter, r *http.Request) {
		v := r.URL.Query()
		res, msg := s.search(v)
		var b strings.Builder
		b.WriteString("<div class=\"cols\">" + side + "\n<section class=\"main\">" + search(v) + "\n")
		if len(res) == 0 {
			fmt.Fprintf(&b, "<p class=\"none\">%s</p></section></div>", esc(msg))
			writePage(w, http.StatusOK, s.Description, "Search", b.String())
			return
		}
		start, _ := strconv.Atoi(v.Get("start")) // a bad value is page 1
		start = max(0, min(start, len(res)-1)) / s.PageSize * s.PageSize
		end := min(start+s.PageSize, len(res))
		fmt.Fprintf(&b, "<h2>%d books</h2>\n<ul class=\"books\">\n", len(res))
		for _, rec := range res[start:end] {
			fmt.Fprintf(&b, `<li data-record="%s"><a class="t" href="/book/%s" data-field="title">%s</a> — <span class="a" data-field="author">%s</span>`,
				rec.ID, strings.TrimPrefix(rec.ID, "book-"), esc(rec.Values["title"]), esc(rec.Values["author"]))
			if y := rec.Values["year"]; y != "" {
				fmt.Fprintf(&b, ` <span class="y" data-field="year">%s</span>`, esc(y))
			}
			b.WriteString("</li>\n")
		}
		b.WriteString("</ul>\n<div class=\"more\">")
		if start > 0 {
			fmt.Fprintf(&b, `<a href="/find?%s" aria-label="Previous page">«</a> `, esc(with(v, "start", fmt.Sprint(start-s.PageSize)).Encode()))
		}
		fmt.Fprintf(&b, "%d–%d", start+1, end)
		if end < len(res) {
			fmt.Fprintf(&b, ` <a href="/find?%s" aria-label="Next page">»</a>`, esc(with(v, "start", fmt.Sprint(end)).Encode()))
		}
		b.WriteString("</div></section></div>")
		writePage(w, http.StatusOK, s.Description, "Search", b.String())
	})
	staticPages(mux, s, "/book/")
	s.Handler = s.serve(mux)
	return s
}
