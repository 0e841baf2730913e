package probe

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

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

	// The site fills the box with a query it kept: the empty probe sends that query,
	// and the unchanged page is a failure.
	d, err = p.Discover(t.Context(), srv.URL+"/kept")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []Assignment{{Kind: KindStopword, Values: map[string]string{"q": "the"}}, {Kind: KindEmpty, Values: map[string]string{}}} {
		rec := &memRecorder{}
		if _, err := p.Run(t.Context(), d.Form(), Plan{a}, rec); err != nil {
			t.Fatal(err)
		}
		if pr := rec.probes[0]; !strings.Contains(pr.Error, "same text as the form page") || pr.Unanswered != "" {
			t.Errorf("%s probe on a box the site fills: error %q, unanswered %q; want a failure", a.Kind, pr.Error, pr.Unanswered)
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
