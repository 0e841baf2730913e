package testsites

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// DemoBooks is the size of the demo site's catalogue: the first DemoBooks books of
// data/books.tsv (the most-rated goodbooks-10k books), of which about two in five are
// in the embedded demo KB.
const DemoBooks = 400

// Demo returns the site `trawl demo` serves: "Bookfinder", an advanced book search
// (keywords, title, author, language, sort) with a members' login form on the same
// page, results as a list of book cards of which part is rendered by a script (the
// year, language and price of each card come from a JSON endpoint after the page
// loaded), numbered pages with a "Next" link, and a no-result page that echoes the
// query. Submitting the login form is a violation, as on the other sites.
//
// It is not among All: it exists for the demo and for the end-to-end tests.
func Demo() *Site {
	attrs := []string{"title", "author", "year", "language", "price"}
	recs, bs := bookRecords(DemoBooks, attrs)
	byID := make(map[string]book, len(bs))
	for _, b := range bs {
		byID[strconv.Itoa(b.ID)] = b
	}
	s := &Site{
		Name:        "demo",
		Description: "Bookfinder",
		Kind:        "book",
		FormPath:    "/",
		Method:      "GET",
		PageSize:    10,
		Attributes:  attrs,
		Fields: []Field{
			{Name: "q", Type: "text", Attributes: []string{"title", "author"}, Match: MatchWords, Keyword: true},
			{Name: "title", Type: "text", Attributes: []string{"title"}, Match: MatchWords},
			{Name: "author", Type: "text", Attributes: []string{"author"}, Match: MatchWords},
			{Name: "language", Type: "select", Attributes: []string{"language"}, Match: MatchExact},
			{Name: "sort", Type: "select", Match: MatchNone},
		},
		Features: []string{FeatureGET, FeatureAdvanced, FeatureList, FeatureJS, FeatureNumbered, FeatureNextLink,
			FeatureLoginForm, FeatureEchoError},
		Records: recs,
	}
	filled := func(v url.Values) []string {
		var out []string
		for _, f := range s.Fields {
			if f.Match != MatchNone && strings.TrimSpace(v.Get(f.Name)) != "" {
				out = append(out, strings.TrimSpace(v.Get(f.Name)))
			}
		}
		return out
	}
	s.search = func(v url.Values) ([]Record, string) {
		if len(filled(v)) == 0 {
			return nil, "Type a word of a title or an author's name, or choose a language."
		}
		res := sortRecords(filter(s.Records, s.Fields, v), v.Get("sort"))
		if len(res) == 0 {
			return nil, "No books match “" + strings.Join(filled(v), " ") + "”."
		}
		return res, ""
	}
	langs := distinct(recs, "language")
	login := `<aside class="members">
<h2>Members</h2>
<form action="/login" method="post" id="login">
<p><label for="user">E-mail</label> <input id="user" type="email" name="email" autocomplete="username"></p>
<p><label for="pw">Password</label> <input id="pw" type="password" name="password" autocomplete="current-password"></p>
<p><button type="submit">Sign in</button> <a href="/register">Create an account</a></p>
</form>
</aside>`
	form := func(v url.Values) string {
		return fmt.Sprintf(`<form action="/search" method="get" id="search" class="advanced">
<fieldset><legend>Find books</legend>
<p><label for="q">Keywords</label> <input id="q" name="q" type="search" value="%s" placeholder="Words of a title or a name"></p>
<p><label for="title">Title</label> <input id="title" name="title" type="text" value="%s"></p>
<p><label for="author">Author</label> <input id="author" name="author" type="text" value="%s"></p>
<p><label for="language">Language</label> <select id="language" name="language"><option value="">Any language</option>%s</select></p>
<p><label for="sort">Sort by</label> <select id="sort" name="sort">%s</select></p>
<p><button type="submit">Search</button></p>
</fieldset>
</form>`, esc(v.Get("q")), esc(v.Get("title")), esc(v.Get("author")), options(langs, langs, v.Get("language")),
			options([]string{"", "title", "author", "year"}, []string{"Popularity", "Title", "Author", "Year"}, v.Get("sort")))
	}
	// The cards' year, language and price are filled in by this script from /api/meta.
	const script = `<script>
document.addEventListener('DOMContentLoaded', function () {
  var slots = document.querySelectorAll('p.meta[data-book]');
  if (!slots.length) return;
  var ids = Array.prototype.map.call(slots, function (s) { return s.getAttribute('data-book'); });
  fetch('/api/meta?ids=' + ids.join(',')).then(function (r) { return r.json(); }).then(function (meta) {
    slots.forEach(function (s) {
      var m = meta[s.getAttribute('data-book')];
      if (!m) return;
      s.innerHTML = '';
      var parts = [['year', 'Published ' , m.year], ['lang', '', m.language], ['price', '', m.price]];
      parts.forEach(function (p, i) {
        if (!p[2]) return;
        if (i > 0) s.appendChild(document.createTextNode(' · '));
        if (p[1]) s.appendChild(document.createTextNode(p[1]));
        var span = document.createElement('span');
        span.className = p[0];
        span.setAttribute('data-field', p[0] === 'lang' ? 'language' : p[0]);
        span.textContent = p[2];
        s.appendChild(span);
      });
    });
  });
});
</script>`
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, title, body string) {
		writeStyled(w, http.StatusOK, s.Description, title, script,
			`<div class="cols">`+login+"\n<section class=\"main\">"+body+"</section></div>")
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Advanced search", "<h1>Bookfinder</h1>\n<p class=\"intro\">Search four hundred popular books by title, author and language.</p>\n"+form(url.Values{}))
	})
	for _, p := range []string{"/login", "/register"} {
		mux.HandleFunc("POST "+p, func(w http.ResponseWriter, r *http.Request) {
			s.violation("POST %s: an account form was submitted", p)
			writePage(w, http.StatusUnauthorized, s.Description, "Sign in", "<p>Wrong e-mail or password.</p>")
		})
	}
	mux.HandleFunc("GET /register", func(w http.ResponseWriter, r *http.Request) {
		writePage(w, http.StatusOK, s.Description, "Create an account", `<form action="/register" method="post">
<label>E-mail <input type="email" name="email"></label> <label>Password <input type="password" name="password"></label>
<label>Repeat password <input type="password" name="password2"></label> <button>Create account</button></form>`)
	})
	mux.HandleFunc("GET /api/meta", func(w http.ResponseWriter, r *http.Request) {
		out := map[string]map[string]string{}
		for _, id := range strings.Split(r.URL.Query().Get("ids"), ",") {
			if b, ok := byID[id]; ok {
				out[id] = map[string]string{"year": b.Year, "language": b.Language, "price": b.Price}
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	})
	mux.HandleFunc("GET /search", func(w http.ResponseWriter, r *http.Request) {
		v := r.URL.Query()
		res, msg := s.search(v)
		if len(res) == 0 {
			page(w, "No results", form(v)+fmt.Sprintf("\n<p class=\"none\">%s</p>", esc(msg)))
			return
		}
		p := pageParam(v, "page")
		recs, pages := pageOf(res, p, s.PageSize)
		var b strings.Builder
		b.WriteString(form(v))
		fmt.Fprintf(&b, "\n<h2 class=\"count\">%d books found</h2>\n<ol class=\"results\">\n", len(res))
		for _, rec := range recs {
			id := strings.TrimPrefix(rec.ID, "book-")
			fmt.Fprintf(&b, `<li class="book" data-record="%s"><h3 class="title"><a href="/book/%s" data-field="title">%s</a></h3>`+
				`<p class="by">by <span class="author" data-field="author">%s</span></p><p class="meta" data-book="%s">…</p></li>`+"\n",
				rec.ID, id, esc(rec.Values["title"]), esc(rec.Values["author"]), id)
		}
		b.WriteString("</ol>\n<nav class=\"pages\" aria-label=\"Result pages\">")
		for _, n := range pageWindow(p, pages) {
			if n == 0 {
				b.WriteString(" …")
				continue
			}
			if n == p {
				fmt.Fprintf(&b, ` <strong>%d</strong>`, n)
				continue
			}
			fmt.Fprintf(&b, ` <a href="/search?%s">%d</a>`, esc(with(v, "page", strconv.Itoa(n)).Encode()), n)
		}
		if p < pages {
			fmt.Fprintf(&b, ` <a class="next" rel="next" href="/search?%s">Next ›</a>`, esc(with(v, "page", strconv.Itoa(p+1)).Encode()))
		}
		b.WriteString("</nav>")
		page(w, "Results", b.String())
	})
	staticPages(mux, s, "/book/")
	s.Handler = s.serve(mux)
	return s
}
