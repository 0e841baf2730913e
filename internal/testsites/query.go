package testsites

import (
	"cmp"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// folded memoises textnorm.Fold of record values (the same values are folded for every
// request).
var folded sync.Map

func fold(s string) string {
	if v, ok := folded.Load(s); ok {
		return v.(string)
	}
	f := textnorm.Fold(s)
	folded.Store(s, f)
	return f
}

// tokenText memoises the words of record values joined by spaces, which MatchWords
// searches: a query word is compared with words, so that "penumbras" (the query's
// "Penumbra's" as textnorm.Tokens splits it) finds "Mr. Penumbra's".
var tokenTexts sync.Map

func tokenText(s string) string {
	if v, ok := tokenTexts.Load(s); ok {
		return v.(string)
	}
	t := strings.Join(textnorm.Tokens(s), " ")
	tokenTexts.Store(s, t)
	return t
}

// filter returns the records that every field accepts, in catalogue order.
func filter(recs []Record, fields []Field, v url.Values) []Record {
	var out []Record
	for _, r := range recs {
		ok := true
		for _, f := range fields {
			if !accepts(r, f, v[f.Name]) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, r)
		}
	}
	return out
}

// accepts reports whether field f with the submitted values keeps record r.
func accepts(r Record, f Field, vals []string) bool {
	val := ""
	if len(vals) > 0 {
		val = strings.TrimSpace(vals[0])
	}
	switch f.Match {
	case MatchNone:
		return true
	case MatchOneOf:
		var set []string
		for _, x := range vals {
			if x = strings.TrimSpace(x); x != "" {
				set = append(set, textnorm.Fold(x))
			}
		}
		if len(set) == 0 {
			return true
		}
		return slices.Contains(set, fold(r.Values[f.Attributes[0]]))
	}
	if val == "" {
		return true
	}
	switch f.Match {
	case MatchWords:
		words := textnorm.Tokens(val)
		for _, w := range words {
			found := false
			for _, a := range f.Attributes {
				if strings.Contains(tokenText(r.Values[a]), w) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case MatchExact:
		return fold(r.Values[f.Attributes[0]]) == textnorm.Fold(val)
	case MatchDecade:
		d, err1 := strconv.Atoi(val)
		y, err2 := strconv.Atoi(r.Values[f.Attributes[0]])
		return err1 == nil && err2 == nil && y >= d && y <= d+9
	case MatchMin, MatchMax:
		lim, err1 := strconv.ParseFloat(val, 64)
		x, err2 := strconv.ParseFloat(r.Values[f.Attributes[0]], 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if f.Match == MatchMin {
			return x >= lim
		}
		return x <= lim
	}
	panic("testsites: unknown match kind " + f.Match)
}

// sortRecords orders records by a sort key of the forms ("", "title", "year", "author",
// "director"); "" keeps the catalogue order. The sort is stable.
func sortRecords(recs []Record, key string) []Record {
	if key == "" || key == "relevance" || key == "popularity" {
		return recs
	}
	out := slices.Clone(recs)
	switch key {
	case "year":
		slices.SortStableFunc(out, func(a, b Record) int {
			ya, ea := strconv.Atoi(a.Values["year"])
			yb, eb := strconv.Atoi(b.Values["year"])
			switch {
			case ea != nil && eb != nil:
				return 0
			case ea != nil:
				return 1
			case eb != nil:
				return -1
			}
			return cmp.Compare(ya, yb)
		})
	default:
		slices.SortStableFunc(out, func(a, b Record) int {
			return cmp.Compare(fold(a.Values[key]), fold(b.Values[key]))
		})
	}
	return out
}

// pageOf returns page p (1-based) of recs and the number of pages (at least 1).
func pageOf(recs []Record, p, size int) ([]Record, int) {
	pages := max(1, (len(recs)+size-1)/size)
	if p < 1 || p > pages {
		return nil, pages
	}
	lo := (p - 1) * size
	return recs[lo:min(lo+size, len(recs))], pages
}

// pageParam reads a 1-based page number; anything else is page 1.
func pageParam(v url.Values, name string) int {
	p, err := strconv.Atoi(v.Get(name))
	if err != nil || p < 1 {
		return 1
	}
	return p
}

// with returns a copy of v with key set to val.
func with(v url.Values, key, val string) url.Values {
	c := url.Values{}
	for k, vs := range v {
		c[k] = slices.Clone(vs)
	}
	c.Set(key, val)
	return c
}

// esc escapes text for HTML content and attribute values.
func esc(s string) string { return html.EscapeString(s) }

// writePage writes a complete HTML page with the common chrome around body.
func writePage(w http.ResponseWriter, status int, site, title, body string) {
	writeStyled(w, status, site, title, "", body)
}

// writeStyled is writePage with extra head markup (styles, scripts).
func writeStyled(w http.ResponseWriter, status int, site, title, head, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s — %s</title>
<style>
body { font-family: Georgia, serif; margin: 0; color: #222; }
header.top { background: #2d3e50; color: #fff; padding: 0.6em 1em; }
header.top a { color: #fff; margin-right: 1em; }
main { padding: 1em; max-width: 70em; }
footer { border-top: 1px solid #ccc; padding: 1em; font-size: 0.8em; color: #666; }
table { border-collapse: collapse; }
td, th { border-bottom: 1px solid #ddd; padding: 0.3em 0.6em; text-align: left; }
</style>
%s
</head>
<body>
<header class="top"><a class="brand" href="/">%s</a>
<nav><a href="/">Home</a><a href="/about">About</a><a href="/help">Help</a></nav></header>
<main>
%s
</main>
<footer><p>© 2026 %s · Book data: goodbooks-10k (CC BY-SA 4.0) · Prices are illustrative.</p>
<p><a href="/private/staff">Staff login</a></p></footer>
</body>
</html>
`, esc(title), esc(site), head, esc(site), body, esc(site))
}

// staticPages adds the about and help pages and the record detail pages to a mux.
func staticPages(mux *http.ServeMux, s *Site, detail string) {
	mux.HandleFunc("GET /about", func(w http.ResponseWriter, r *http.Request) {
		writePage(w, http.StatusOK, s.Description, "About", "<h1>About us</h1><p>"+esc(s.Description)+"</p>")
	})
	mux.HandleFunc("GET /help", func(w http.ResponseWriter, r *http.Request) {
		writePage(w, http.StatusOK, s.Description, "Help",
			`<h1>Searching</h1><p>Type one or more words of a title or a name. All words must match.</p>`)
	})
	if detail == "" {
		return
	}
	mux.HandleFunc("GET "+detail+"{id}", func(w http.ResponseWriter, r *http.Request) {
		rec, ok := s.Record(s.Kind + "-" + r.PathValue("id"))
		if !ok {
			writePage(w, http.StatusNotFound, s.Description, "Not found", "<h1>Not found</h1>")
			return
		}
		var b strings.Builder
		fmt.Fprintf(&b, "<h1>%s</h1><dl>", esc(rec.Values["title"]))
		for _, a := range s.Attributes {
			if a != "title" && rec.Values[a] != "" {
				fmt.Fprintf(&b, "<dt>%s</dt><dd>%s</dd>", esc(a), esc(rec.Values[a]))
			}
		}
		b.WriteString("</dl>")
		writePage(w, http.StatusOK, s.Description, rec.Values["title"], b.String())
	})
}

// options renders <option> elements, marking the selected value.
func options(values, labels []string, selected string) string {
	var b strings.Builder
	for i, v := range values {
		sel := ""
		if v == selected {
			sel = " selected"
		}
		fmt.Fprintf(&b, `<option value="%s"%s>%s</option>`, esc(v), sel, esc(labels[i]))
	}
	return b.String()
}

// distinct returns the sorted distinct non-empty values of an attribute.
func distinct(recs []Record, attr string) []string {
	var out []string
	for _, r := range recs {
		if v := r.Values[attr]; v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// decades returns the decades (as "1920") that hold at least one record year.
func decades(recs []Record, from int) []string {
	seen := map[int]bool{}
	for _, r := range recs {
		if y, err := strconv.Atoi(r.Values["year"]); err == nil && y >= from {
			seen[y/10*10] = true
		}
	}
	var ds []int
	for d := range seen {
		ds = append(ds, d)
	}
	slices.Sort(ds)
	var out []string
	for _, d := range ds {
		out = append(out, strconv.Itoa(d))
	}
	return out
}
