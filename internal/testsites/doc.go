// Package testsites serves local deep-web test sites: small search applications written
// in Go, each with a different template (GET search with an HTML table, POST with a CSRF
// token and a session, results rendered by JavaScript from a JSON endpoint, numbered
// pagination, an advanced search form, a login form next to the search form, error pages
// that echo the query, "no results" pages). Every stage of trawl is tested on them: the
// prober drives real Chromium against them, the record extractor, the output schema and
// the input–output mapping are scored against their ground truth.
//
// Each site is an http.Handler; serve it with httptest:
//
//	s := testsites.ByName("bookshop")
//	srv := httptest.NewServer(s.Handler)
//	defer srv.Close()
//	form := srv.URL + s.FormPath
//
// # Ground truth
//
// A Site knows its catalogue (Records, with the value of every displayed attribute), the
// attributes a result record shows (Attributes), which form field filters which
// attribute and how (Fields), and the exact result list of any submission (Search).
//
// # Markers (for scoring only)
//
// In every result page, the root element of each record carries the attribute
// data-record="<record id>" and each element holding an attribute value carries
// data-field="<attribute>". They are the answer key. The marked element's text is the
// value, possibly with a constant label around it ("Author: Harper Lee", "(1960)");
// Record.Values holds the bare value. On the films site the markers are set by the
// page's script, so they are in the DOM after scripts ran, not in the served HTML. The record extractor, the schema
// builder and every other stage under test must never read them: a test scores a
// stage by comparing its output with the markers, and StripMarkers removes them from a
// page so a test can prove that the stage did not depend on them.
//
// # Data
//
// Books come from goodbooks-10k (CC BY-SA 4.0, Zygmunt Zając; derived file
// data/books.tsv, see data/SOURCE.md). Prices and formats of books are synthetic. Films
// are a hand-written list of well-known films (data/films.tsv).
//
// # Server-side checks
//
// Each site counts its requests and records violations of the rules a polite, safe
// prober must follow: a submitted login, registration or newsletter form, a request
// to a path robots.txt disallows. Tests assert Violations() is empty.
package testsites
