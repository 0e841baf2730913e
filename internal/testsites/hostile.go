package testsites

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Paths of the hostile site: pages a prober must survive in bounded time.
const (
	HostileNoForm        = "/no-form"        // a page without any form
	HostileLoginOnly     = "/login-only"     // only a login form and a newsletter form
	HostileUnsettled     = "/unsettled"      // a search form; form and result pages change their DOM every 10 ms and keep a long poll open
	HostileUnsettledSlow = "/unsettled-slow" // the same, with a result page that answers after UnsettledDelay
	HostileRedirectLoop  = "/redirect-loop"  // a search form whose action redirects to itself forever
	HostileHuge          = "/huge"           // a search form whose result page is 50 MB (with Content-Length)
	HostileHugeChunked   = "/huge-chunked"   // the same, streamed without Content-Length
	HostileBusy          = "/busy"           // a search form; the result page's script loops forever
	HostileBusyLoad      = "/busy-load"      // a page whose script loops forever while it loads
	HostileDialog        = "/dialog"         // alert on load, confirm on submit, alert on the result page
	HostileSlow          = "/slow"           // a search form whose result page never answers
	HostileRobotsBlocked = "/robots-blocked" // a search form whose action robots.txt disallows
	HostileOffsite       = "/offsite"        // a search form whose action is on another origin
	HostileOffsiteRedir  = "/offsite-redir"  // a search form whose result redirects to another origin
	HostileJSForm        = "/js-form"        // the search form is built by a script after load
	HostileFormless      = "/formless"       // a search box and button outside any <form>
	HostileNotFound      = "/not-found"      // a search form whose result page is a 404
	HostileServerError   = "/server-error"   // a search form whose result page is a 500
)

// UnsettledDelay is how long the server of HostileUnsettledSlow takes to answer a search.
const UnsettledDelay = 2 * time.Second

// HugeSize is the size of the hostile site's huge result page.
const HugeSize = 50 << 20

// Hostile returns the hostile test site: each path above holds one kind of bad input
// for the prober. Searches that do answer list books of the catalogue (as the portal
// site does, with markers). FormPath is HostileJSForm; the index at / links to every
// page.
func Hostile() *Site {
	attrs := []string{"title", "author"}
	recs, _ := bookRecords(300, attrs)
	s := &Site{
		Name:        "hostile",
		Description: "Hostile pages",
		Kind:        "book",
		FormPath:    HostileJSForm,
		Method:      "GET",
		PageSize:    10,
		Attributes:  attrs,
		Fields: []Field{
			{Name: "q", Type: "text", Attributes: []string{"title", "author"}, Match: MatchWords, Keyword: true},
		},
		Records: recs,
		robots:  "User-agent: *\nDisallow: /blocked/\nDisallow: /private/\n",
	}
	s.search = func(v url.Values) ([]Record, string) {
		res := filter(s.Records, s.Fields, v)
		if len(res) == 0 {
			return nil, "No match."
		}
		return res, ""
	}
	form := func(action, extra string) string {
		return fmt.Sprintf(`<form action="%s" method="get" id="search"%s><label for="q">Search</label> <input id="q" name="q" type="search"> <button type="submit">Search</button></form>`, esc(action), extra)
	}
	results := func(v url.Values) string {
		res, msg := s.search(v)
		if len(res) == 0 {
			return "<p>" + esc(msg) + "</p>"
		}
		page, _ := pageOf(res, 1, s.PageSize)
		var b strings.Builder
		b.WriteString("<ul class=\"hits\">")
		for _, rec := range page {
			fmt.Fprintf(&b, `<li data-record="%s"><b data-field="title">%s</b> by <i data-field="author">%s</i></li>`, rec.ID, esc(rec.Values["title"]), esc(rec.Values["author"]))
		}
		b.WriteString("</ul>")
		return b.String()
	}
	page := func(w http.ResponseWriter, title, body string) {
		writePage(w, http.StatusOK, s.Description, title, body)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		b.WriteString("<h1>Hostile pages</h1><ul>")
		for _, p := range []string{HostileNoForm, HostileLoginOnly, HostileUnsettled, HostileUnsettledSlow, HostileRedirectLoop, HostileHuge,
			HostileHugeChunked, HostileBusy, HostileBusyLoad, HostileDialog, HostileSlow, HostileRobotsBlocked,
			HostileOffsite, HostileOffsiteRedir, HostileJSForm, HostileFormless, HostileNotFound, HostileServerError} {
			fmt.Fprintf(&b, `<li><a href="%s">%s</a></li>`, p, p)
		}
		b.WriteString("</ul>")
		page(w, "Index", b.String())
	})
	mux.HandleFunc("GET "+HostileNoForm, func(w http.ResponseWriter, r *http.Request) {
		page(w, "No form", "<h1>Nothing to search here</h1><p>This page has links and text but no form.</p><p><a href=\"/\">Back</a></p>")
	})
	mux.HandleFunc("GET "+HostileLoginOnly, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Sign in", `<h1>Sign in</h1>
<form action="/login" method="post" id="login"><label>E-mail <input type="email" name="email"></label>
<label>Password <input type="password" name="password"></label><button type="submit">Sign in</button></form>
<h2>Newsletter</h2>
<form action="/subscribe" method="post"><input type="email" name="email" placeholder="you@example.org"><button type="submit">Subscribe</button></form>`)
	})
	mux.HandleFunc("POST /login", func(w http.ResponseWriter, r *http.Request) {
		s.violation("POST /login: the login form was submitted")
		page(w, "Sign in", "<p>No.</p>")
	})
	mux.HandleFunc("POST /subscribe", func(w http.ResponseWriter, r *http.Request) {
		s.violation("POST /subscribe: the newsletter form was submitted")
		page(w, "Newsletter", "<p>No.</p>")
	})
	const churn = `<div id="ticker">0</div><script>
var n = 0; setInterval(function () { n++; document.getElementById('ticker').textContent = 'tick ' + n; }, 10);
(function poll() { fetch('/unsettled/poll').catch(function () {}).finally(poll); })();
</script>`
	mux.HandleFunc("GET "+HostileUnsettled, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Unsettled", "<h1>Live search</h1>"+form(HostileUnsettled+"/results", "")+churn)
	})
	mux.HandleFunc("GET "+HostileUnsettled+"/results", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Unsettled results", results(r.URL.Query())+churn)
	})
	mux.HandleFunc("GET "+HostileUnsettledSlow, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Unsettled", "<h1>Live search</h1>"+form(HostileUnsettledSlow+"/results", "")+churn)
	})
	mux.HandleFunc("GET "+HostileUnsettledSlow+"/results", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(UnsettledDelay):
		case <-r.Context().Done():
			return
		}
		page(w, "Unsettled results", results(r.URL.Query())+churn)
	})
	mux.HandleFunc("GET "+HostileUnsettled+"/poll", func(w http.ResponseWriter, r *http.Request) {
		// A long poll: a request is always in flight.
		select {
		case <-time.After(30 * time.Second):
		case <-r.Context().Done():
			return
		}
		fmt.Fprint(w, "{}")
	})
	mux.HandleFunc("GET "+HostileRedirectLoop, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Loop", "<h1>Search</h1>"+form("/loop", ""))
	})
	mux.HandleFunc("GET /loop", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		http.Redirect(w, r, "/loop?n="+strconv.Itoa((n+1)%2), http.StatusFound)
	})
	mux.HandleFunc("GET "+HostileHuge, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Huge", "<h1>Search</h1>"+form(HostileHuge+"/results", ""))
	})
	mux.HandleFunc("GET "+HostileHugeChunked, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Huge", "<h1>Search</h1>"+form(HostileHugeChunked+"/results", ""))
	})
	huge := func(w http.ResponseWriter, r *http.Request, withLength bool) {
		head := "<!DOCTYPE html><html><head><title>Huge</title></head><body>" + results(r.URL.Query()) + "<div>"
		tail := "</div></body></html>"
		chunk := strings.Repeat("<p>padding padding padding padding padding padding padding padding</p>\n", 1024)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		n := (HugeSize - len(head) - len(tail)) / len(chunk)
		if withLength {
			w.Header().Set("Content-Length", strconv.Itoa(len(head)+n*len(chunk)+len(tail)))
		}
		fmt.Fprint(w, head)
		for range n {
			if _, err := fmt.Fprint(w, chunk); err != nil {
				return // the client gave up
			}
		}
		fmt.Fprint(w, tail)
	}
	mux.HandleFunc("GET "+HostileHuge+"/results", func(w http.ResponseWriter, r *http.Request) { huge(w, r, true) })
	mux.HandleFunc("GET "+HostileHugeChunked+"/results", func(w http.ResponseWriter, r *http.Request) { huge(w, r, false) })
	mux.HandleFunc("GET "+HostileBusy, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Busy", "<h1>Search</h1>"+form(HostileBusy+"/results", ""))
	})
	mux.HandleFunc("GET "+HostileBusy+"/results", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Busy results", results(r.URL.Query())+`<script>setTimeout(function () { for (;;) {} }, 0);</script>`)
	})
	mux.HandleFunc("GET "+HostileBusyLoad, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Busy", "<h1>Search</h1>"+form("/busy/results", "")+`<script>for (;;) {}</script>`)
	})
	mux.HandleFunc("GET "+HostileDialog, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Dialogs", "<h1>Search</h1>"+form(HostileDialog+"/results", ` onsubmit="return confirm('Search now?') || true"`)+
			`<script>alert('Welcome to our site!');</script>`)
	})
	mux.HandleFunc("GET "+HostileDialog+"/results", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Dialog results", results(r.URL.Query())+`<script>window.addEventListener('load', function () { alert('Here are your results'); });</script>`)
	})
	mux.HandleFunc("GET "+HostileSlow, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Slow", "<h1>Search</h1>"+form(HostileSlow+"/results", ""))
	})
	mux.HandleFunc("GET "+HostileSlow+"/results", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Minute):
		}
	})
	mux.HandleFunc("GET "+HostileRobotsBlocked, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Blocked", "<h1>Search</h1>"+form("/blocked/search", ""))
	})
	mux.HandleFunc("/blocked/", func(w http.ResponseWriter, r *http.Request) {
		s.violation("%s %s: robots.txt disallows /blocked/", r.Method, r.URL.Path)
		page(w, "Blocked", results(r.URL.Query()))
	})
	mux.HandleFunc("GET "+HostileOffsite, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Offsite", "<h1>Search</h1>"+form("http://127.0.0.2:9/search", ""))
	})
	mux.HandleFunc("GET "+HostileOffsiteRedir, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Offsite", "<h1>Search</h1>"+form(HostileOffsiteRedir+"/results", ""))
	})
	mux.HandleFunc("GET "+HostileOffsiteRedir+"/results", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.2:9/elsewhere", http.StatusFound)
	})
	mux.HandleFunc("GET "+HostileJSForm, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Scripted form", `<h1>Search</h1><div id="mount">Loading…</div>
<script>
document.addEventListener('DOMContentLoaded', function () {
  var f = document.createElement('form');
  f.action = '/js-form/results'; f.method = 'get'; f.id = 'search';
  var i = document.createElement('input'); i.type = 'search'; i.name = 'q'; i.placeholder = 'Search books';
  var b = document.createElement('button'); b.type = 'submit'; b.textContent = 'Search';
  f.appendChild(i); f.appendChild(b);
  var m = document.getElementById('mount'); m.textContent = ''; m.appendChild(f);
});
</script>`)
	})
	mux.HandleFunc("GET "+HostileJSForm+"/results", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Results", results(r.URL.Query()))
	})
	mux.HandleFunc("GET "+HostileFormless, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Formless", `<h1>Search</h1><div class="search-box"><input type="text" id="q" name="q" placeholder="Search books">
<button type="button" id="go">Search</button></div>
<script>
function go() { location.href = '/formless/results?q=' + encodeURIComponent(document.getElementById('q').value); }
document.getElementById('go').addEventListener('click', go);
document.getElementById('q').addEventListener('keydown', function (e) { if (e.key === 'Enter') go(); });
</script>`)
	})
	mux.HandleFunc("GET "+HostileFormless+"/results", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Results", results(r.URL.Query()))
	})
	mux.HandleFunc("GET "+HostileNotFound, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Not found", "<h1>Search</h1>"+form("/nowhere", ""))
	})
	mux.HandleFunc("GET "+HostileServerError, func(w http.ResponseWriter, r *http.Request) {
		page(w, "Error", "<h1>Search</h1>"+form(HostileServerError+"/results", ""))
	})
	mux.HandleFunc("GET "+HostileServerError+"/results", func(w http.ResponseWriter, r *http.Request) {
		writePage(w, http.StatusInternalServerError, s.Description, "Error", "<h1>Internal error</h1><p>Something went wrong.</p>")
	})
	s.Handler = s.serve(mux)
	return s
}
