package probe

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// rememberSeq numbers the sessions of captureSite's /remember.
var rememberSeq atomic.Int64

// captureSite serves forms whose submissions give pages that cannot count, a form whose
// fields sit in collapsed panels, and an XHTML form page.
func captureSite() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Catalogue</title></head><body>`+body+`</body></html>`)
	}
	form := `<h1>Catalogue</h1><form action="%s" method="get"><input name="q"><input type="submit" value="Search"></form><p>Search the catalogue of books.</p>`
	// The same page whatever the query: the form page unchanged.
	mux.HandleFunc("/same", func(w http.ResponseWriter, r *http.Request) { page(w, fmt.Sprintf(form, "/same")) })
	// The same page whatever the query, whose box shows the last query kept in a
	// cookie (as sites that remember a visitor's search do).
	mux.HandleFunc("/kept", func(w http.ResponseWriter, r *http.Request) {
		if q := r.FormValue("q"); q != "" {
			http.SetCookie(w, &http.Cookie{Name: "lastq", Value: q, Path: "/"})
		}
		last := ""
		if c, err := r.Cookie("lastq"); err == nil {
			last = c.Value
		}
		page(w, `<h1>Catalogue</h1><form action="/kept" method="get"><input name="q" value="`+html.EscapeString(last)+`"><input type="submit" value="Search"></form><p>Search the catalogue of books.</p>`)
	})
	// A form that remembers: the form page issues a session cookie and a CSRF token
	// bound to it and fills the box with the last query (a cookie, as Fossil's
	// timeline does) and a "seen" list with what local storage holds; the result page
	// refuses a token that does not match the session, and shows what the visitor
	// sent before.
	mux.HandleFunc("/remember", func(w http.ResponseWriter, r *http.Request) {
		sid := fmt.Sprintf("s%d", rememberSeq.Add(1))
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: sid, Path: "/"})
		last := ""
		if c, err := r.Cookie("lastq"); err == nil {
			last = c.Value
		}
		page(w, `<h1>Catalogue</h1><form action="/remember/results" method="get"><input type="hidden" name="token" value="t-`+sid+`">
<input name="q" value="`+html.EscapeString(last)+`"><input type="hidden" name="stored" id="stored"><input type="submit" value="Search"></form>
<p>Search the catalogue of books.</p><script>document.getElementById("stored").value = localStorage.getItem("lastq") || ""</script>`)
	})
	mux.HandleFunc("/remember/results", func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie("sid")
		if err != nil || r.FormValue("token") != "t-"+c.Value {
			w.WriteHeader(http.StatusForbidden)
			page(w, `<h1>Forbidden</h1><p>The form's token does not match the session: reload the search page and try again.</p>`)
			return
		}
		before := ""
		if c, err := r.Cookie("lastq"); err == nil {
			before = c.Value
		}
		q := r.FormValue("q")
		http.SetCookie(w, &http.Cookie{Name: "lastq", Value: q, Path: "/"})
		page(w, `<h1>Results for `+html.EscapeString(q)+`</h1><p>cookie before=[`+html.EscapeString(before)+`] stored before=[`+html.EscapeString(r.FormValue("stored"))+`]</p>
<ul><li>Bleak House</li><li>Hard Times</li></ul><script>localStorage.setItem("lastq", `+strconv.Quote(q)+`)</script>`)
	})
	// A filter form that submits itself when its select changes (Fossil's timeline):
	// the page lists the entries of the type asked for.
	mux.HandleFunc("/auto", func(w http.ResponseWriter, r *http.Request) {
		y := r.FormValue("y")
		sel := func(v string) string {
			if v == y {
				return " selected"
			}
			return ""
		}
		list := "<li>check-in 1</li><li>ticket 2</li><li>wiki 3</li>"
		if y != "" && y != "all" {
			list = "<li>" + html.EscapeString(y) + " entry</li>"
		}
		page(w, `<h1>Timeline</h1><form action="/auto" method="get"><select name="y" onchange="this.form.submit()"><option value="all"`+sel("all")+`>Any type</option>
<option value="ci"`+sel("ci")+`>Check-ins</option><option value="t"`+sel("t")+`>Tickets</option></select><input type="submit" value="Go"></form><ul>`+list+`</ul>`)
	})
	// A result page with a head and nothing in its body.
	mux.HandleFunc("/head", func(w http.ResponseWriter, r *http.Request) { page(w, fmt.Sprintf(form, "/head/results")) })
	mux.HandleFunc("/head/results", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Results</title><meta name="x" content="y"></head><body></body></html>`)
	})
	// Collapsed fields: an author box in a panel a toggle opens, a year box in a
	// closed <details>.
	mux.HandleFunc("/panel", func(w http.ResponseWriter, r *http.Request) {
		page(w, `<form action="/panel/results" method="get"><input name="q" placeholder="Search">
<button type="button" aria-controls="adv" aria-expanded="false" onclick="var p=document.getElementById('adv');p.hidden=!p.hidden;this.setAttribute('aria-expanded', String(!p.hidden))">Advanced search</button>
<div id="adv" hidden><label>Author <input name="author"></label></div>
<details><summary>More options</summary><label>Publisher <input name="publisher"></label></details>
<fieldset><legend><a href="#" onclick="var d=document.getElementById('flt');d.style.display=d.style.display==='none'?'block':'none';return false">Filters</a></legend>
<div id="flt" style="display:none"><label>Subject <input name="subject"></label></div></fieldset>
<input type="hidden" name="rows" value="25"><label>Year <input type="number" name="year" min="1800" max="2100"></label>
<input type="submit" value="Search"></form>`)
	})
	mux.HandleFunc("/panel/results", func(w http.ResponseWriter, r *http.Request) {
		page(w, `<h1>Results</h1><p>author=`+html.EscapeString(r.FormValue("author"))+` publisher=`+html.EscapeString(r.FormValue("publisher"))+` subject=`+html.EscapeString(r.FormValue("subject"))+` year=`+html.EscapeString(r.FormValue("year"))+`</p><ul><li>Bleak House</li><li>Hard Times</li></ul>`)
	})
	// An XHTML page: its elements are in the XHTML namespace.
	mux.HandleFunc("/xhtml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xhtml+xml; charset=utf-8")
		fmt.Fprint(w, `<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Catalogue</title></head><body><div><form action="/panel/results" method="get"><p><input name="author"/><input type="submit" value="Search"/></p></form></div></body></html>`)
	})
	return mux
}

// captureProber starts captureSite and a prober for it; both stop with the test.
func captureProber(t *testing.T) (*Prober, *httptest.Server) {
	t.Helper()
	needBrowser(t)
	srv := httptest.NewServer(captureSite())
	t.Cleanup(srv.Close)
	o := testOptions()
	p, err := NewProber(startBrowser(t, o), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p, srv
}

// TestCaptureThatCannotCount: a submission that leaves the form page unchanged or
// gives a head-only page fails with a reason after its attempts, keeps no page, and
// is counted as failed and retried.
func TestCaptureThatCannotCount(t *testing.T) {
	p, srv := captureProber(t)
	for _, tc := range []struct {
		path, want string
		attempts   int
	}{
		{"/same", "same text as the form page", 2},
		{"/head", "a head and no body content", MaxAttempts},
	} {
		t.Run(tc.path, func(t *testing.T) {
			d, err := p.Discover(t.Context(), srv.URL+tc.path)
			if err != nil {
				t.Fatal(err)
			}
			rec := &memRecorder{}
			sum, err := p.Run(t.Context(), d.Form(), Plan{{Kind: KindPlan, Values: map[string]string{"q": "dickens"}}}, rec)
			if err != nil {
				t.Fatal(err)
			}
			pr := rec.probes[0]
			if !strings.Contains(pr.Error, tc.want) || pr.Attempts != tc.attempts || len(rec.pages[0]) != 0 {
				t.Errorf("probe: error %q, %d attempts, %d pages; want %q after %d attempts and no page", pr.Error, pr.Attempts, len(rec.pages[0]), tc.want, tc.attempts)
			}
			if sum.Failed != 1 || sum.Retried != 1 || sum.Pages != 0 {
				t.Errorf("summary %+v, want 1 failed, 1 retried, no page", sum)
			}
			if !strings.Contains(strings.Join(pr.Warnings, " "), "attempt 1 failed") {
				t.Errorf("no warning about the first attempt: %v", pr.Warnings)
			}
		})
	}
}

// TestEmptyQueryUnanswered: a probe with every text box empty that gets the form page
// back unchanged is the site's answer (Probe.Unanswered), not a failure and no page; the
// same answer to a probe with a word typed stays a failure.
func TestEmptyQueryUnanswered(t *testing.T) {
	p, srv := captureProber(t)
	d, err := p.Discover(t.Context(), srv.URL+"/same")
	if err != nil {
		t.Fatal(err)
	}
	rec := &memRecorder{}
	plan := Plan{{Kind: KindEmpty, Values: map[string]string{}}, {Kind: KindPlan, Values: map[string]string{"q": " "}}, {Kind: KindStopword, Values: map[string]string{"q": "the"}}}
	sum, err := p.Run(t.Context(), d.Form(), plan, rec)
	if err != nil {
		t.Fatal(err)
	}
	byKind := map[string]Probe{}
	for i, pr := range rec.probes {
		byKind[pr.Kind] = pr
		if pr.Kind != KindStopword && len(rec.pages[i]) != 0 {
			t.Errorf("probe %s kept %d pages", pr.Kind, len(rec.pages[i]))
		}
	}
	for _, k := range []string{KindEmpty, KindPlan} {
		if pr := byKind[k]; pr.Error != "" || !strings.Contains(pr.Unanswered, "does not answer an empty query") || pr.Attempts != 2 {
			t.Errorf("%s probe: error %q, unanswered %q, %d attempts; want no error, the reason, 2 attempts", k, pr.Error, pr.Unanswered, pr.Attempts)
		}
	}
	if pr := byKind[KindStopword]; !strings.Contains(pr.Error, "same text as the form page") || pr.Unanswered != "" {
		t.Errorf("stop-word probe: error %q, unanswered %q; want a failure", pr.Error, pr.Unanswered)
	}
	if sum.Failed != 1 || sum.Unanswered != 2 || sum.Probes != 3 || sum.Pages != 0 {
		t.Errorf("summary %+v, want 3 probes, 1 failed, 2 unanswered, no page", sum)
	}

	// The site fills the box with the query it kept in a cookie: each probe starts
	// as a first visit, so the empty probe after a stop-word probe sends an empty box
	// and is not answered, where it used to send the kept word and fail.
	d, err = p.Discover(t.Context(), srv.URL+"/kept")
	if err != nil {
		t.Fatal(err)
	}
	rec = &memRecorder{}
	if _, err := p.Run(t.Context(), d.Form(), Plan{{Kind: KindStopword, Values: map[string]string{"q": "the"}}, {Kind: KindEmpty, Values: map[string]string{}}}, rec); err != nil {
		t.Fatal(err)
	}
	kept := map[string]Probe{}
	for _, pr := range rec.probes {
		kept[pr.Kind] = pr
	}
	if pr := kept[KindStopword]; !strings.Contains(pr.Error, "same text as the form page") || pr.Unanswered != "" {
		t.Errorf("stop-word probe on a box the site fills: error %q, unanswered %q; want a failure", pr.Error, pr.Unanswered)
	}
	if pr := kept[KindEmpty]; pr.Error != "" || pr.Unanswered == "" {
		t.Errorf("empty probe after a probe the site kept in a cookie: error %q, unanswered %q; want not answered (the cookie forgotten)", pr.Error, pr.Unanswered)
	}
}

// TestProbesStartFresh: no probe sees the cookies or local storage an earlier probe
// left (the site would show the last query), and each gets a session and CSRF token
// of its own that the site accepts, with one tab or several.
func TestProbesStartFresh(t *testing.T) {
	p, srv := captureProber(t)
	d, err := p.Discover(t.Context(), srv.URL+"/remember")
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"dickens", "austen", "eliot", "hardy", "gaskell", "trollope"}
	var plan Plan
	for _, w := range words {
		plan = append(plan, Assignment{Kind: KindPlan, Values: map[string]string{"q": w}})
	}
	rec := &memRecorder{}
	sum, err := p.Run(t.Context(), d.Form(), plan, rec)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 0 || len(rec.probes) != len(words) {
		t.Fatalf("summary %+v, want %d probes and none failed", sum, len(words))
	}
	for i, pr := range rec.probes {
		if len(rec.pages[i]) == 0 {
			t.Errorf("probe %d %v: no page", pr.N, pr.Assignment)
			continue
		}
		got := rec.pages[i][0].HTML
		if !strings.Contains(got, "Results for "+pr.Assignment["q"]) || !strings.Contains(got, "cookie before=[] stored before=[]") {
			t.Errorf("probe %d %v: the result page shows another probe's state or a refused token: %.300s", pr.N, pr.Assignment, got)
		}
	}
}

// TestCollapsedAndTypedFields: fields in a collapsed panel and a closed <details> are
// revealed by clicking their controls before they are typed into; a hidden or number
// field never takes a word; an XHTML form is filled too.
func TestCollapsedAndTypedFields(t *testing.T) {
	p, srv := captureProber(t)
	d, err := p.Discover(t.Context(), srv.URL+"/panel")
	if err != nil {
		t.Fatal(err)
	}
	f := d.Form()
	pages, err := p.Submit(t.Context(), f, map[string]string{"author": "dickens", "publisher": "penguin", "subject": "law", "year": "1853"})
	if err != nil {
		t.Fatal(err)
	}
	if got := pages[0].HTML; !strings.Contains(got, "author=dickens publisher=penguin subject=law year=1853") {
		t.Errorf("result page does not show the values: %s", got)
	}
	if w := strings.Join(pages[len(pages)-1].Warnings, " "); !strings.Contains(w, `"Advanced search"`) || !strings.Contains(w, `"More options"`) || !strings.Contains(w, `"Filters"`) {
		t.Errorf("warnings %q do not name the controls opened", w)
	}
	for _, bad := range []map[string]string{{"rows": "the"}, {"year": "the"}} {
		if _, err := p.Submit(t.Context(), f, bad); err == nil || !strings.Contains(err.Error(), `"the"`) {
			t.Errorf("Submit(%v): err = %v, want a refusal naming the value", bad, err)
		}
	}
	d, err = p.Discover(t.Context(), srv.URL+"/xhtml")
	if err != nil {
		t.Fatal(err)
	}
	pages, err = p.Submit(t.Context(), d.Form(), map[string]string{"author": "austen"})
	if err != nil || !strings.Contains(pages[0].HTML, "author=austen") {
		t.Errorf("XHTML form: err %v", err)
	}
}

// TestFormSubmitsItselfWhenFilled: a select that submits its form when it changes loads
// the result while the form is filled; the probe keeps that result (compared with the
// form page as it was opened), where it used to find "the form page unchanged".
func TestFormSubmitsItselfWhenFilled(t *testing.T) {
	p, srv := captureProber(t)
	d, err := p.Discover(t.Context(), srv.URL+"/auto")
	if err != nil {
		t.Fatal(err)
	}
	rec := &memRecorder{}
	sum, err := p.Run(t.Context(), d.Form(), Plan{{Kind: KindOption, Values: map[string]string{"y": "t"}}, {Kind: KindOption, Values: map[string]string{"y": "ci"}}}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 0 || sum.Unanswered != 0 {
		t.Fatalf("summary %+v, want no failed or unanswered probe", sum)
	}
	for i, pr := range rec.probes {
		if len(rec.pages[i]) == 0 || !strings.Contains(rec.pages[i][0].HTML, "<li>"+pr.Assignment["y"]+" entry</li>") {
			t.Errorf("probe %v: %d pages, error %q, want the %s entries", pr.Assignment, len(rec.pages[i]), pr.Error, pr.Assignment["y"])
		}
	}
}
