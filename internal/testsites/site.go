package testsites

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Marker attributes of the answer key (see the package documentation). Stages under test
// must never read them.
const (
	RecordAttr = "data-record"
	FieldAttr  = "data-field"
)

// Features of the site templates.
const (
	FeatureGET          = "get"            // the search form submits with GET
	FeaturePOST         = "post"           // the search form submits with POST
	FeatureCSRF         = "csrf"           // a hidden token tied to a session cookie is required
	FeatureSession      = "session"        // the site sets a session cookie
	FeatureTable        = "table"          // records are rows of an HTML table
	FeatureList         = "list"           // records are list items or blocks
	FeatureJS           = "js"             // records are rendered by JavaScript from JSON
	FeatureAJAX         = "ajax"           // results appear without navigation
	FeatureNextLink     = "next-link"      // pagination by a "next" link or button
	FeatureNumbered     = "numbered-pages" // pagination by numbered page links only
	FeatureAdvanced     = "advanced"       // several text fields, selects, checkboxes, radios
	FeatureLoginForm    = "login-form"     // a login form sits next to the search form
	FeatureEchoError    = "echo-error"     // the no-result page echoes the query
	FeatureNoResults    = "no-results"     // the no-result page does not echo the query
	FeatureSoftError    = "soft-error"     // no results: the result layout with zero records
	FeatureLabelValue   = "label-value"    // values are shown as "Label: value" pairs
	FeatureRequiredText = "required-text"  // an empty keyword is refused with an error page
)

// Match kinds of a Field: how a submitted value filters the records.
const (
	MatchWords  = "words"  // every word of the value occurs (as a substring, folded) in one of the attributes
	MatchExact  = "exact"  // the attribute equals the value (folded)
	MatchOneOf  = "one-of" // the attribute equals one of the submitted values (checkbox group)
	MatchDecade = "decade" // the year attribute lies in [value, value+9]
	MatchMin    = "min"    // the numeric attribute is ≥ the value
	MatchMax    = "max"    // the numeric attribute is ≤ the value
	MatchNone   = "none"   // presentation only (sort order, page size): filters nothing
)

// Record is one true record of a site's catalogue.
type Record struct {
	// ID is the value of the data-record marker, e.g. "book-42".
	ID string `json:"id"`
	// Values maps each displayed attribute to its value as the page shows it ("" when the
	// record has none; such an attribute is not displayed for that record).
	Values map[string]string `json:"values"`
}

// Field says what one control of the search form does.
type Field struct {
	// Name is the control's name attribute.
	Name string `json:"name"`
	// Type is the control type: text, number, select, radio or checkbox.
	Type string `json:"type"`
	// Attributes are the record attributes the field filters (empty for MatchNone).
	Attributes []string `json:"attributes,omitempty"`
	// Match says how a value filters them (Match* constants).
	Match string `json:"match"`
	// Keyword is true for the main free-text box.
	Keyword bool `json:"keyword,omitempty"`
}

// Site is one local test site. Handler serves it; the other fields are its ground
// truth. A Site is safe for concurrent use; get a fresh one (with fresh counters and
// sessions) from All or ByName.
type Site struct {
	// Name identifies the site ("bookshop", "library", …).
	Name string `json:"name"`
	// Description says in one sentence what the template tests.
	Description string `json:"description"`
	// Kind is the record type: "book" or "film".
	Kind string `json:"kind"`
	// FormPath is the path of the page with the search form.
	FormPath string `json:"form_path"`
	// Method is the search form's method, "GET" or "POST".
	Method string `json:"method"`
	// PageSize is the number of records per result page.
	PageSize int `json:"page_size"`
	// Attributes are the attributes a result record shows, in display order.
	Attributes []string `json:"attributes"`
	// Fields are the search form's user-facing controls and what they filter.
	Fields []Field `json:"fields"`
	// Features lists the template's traits (Feature* constants).
	Features []string `json:"features"`
	// Records is the whole catalogue in the site's default order.
	Records []Record `json:"-"`
	// Handler serves the site.
	Handler http.Handler `json:"-"`

	search    func(v url.Values) ([]Record, string)
	robots    string // robots.txt; "" = robotsTxt
	indexOnce sync.Once
	byID      map[string]int
	latency   atomic.Int64
	mu        sync.Mutex
	counts    map[string]int
	viol      []string
}

// All returns a fresh instance of every search site, in a stable order.
func All() []*Site {
	return []*Site{newBookshop(), newLibrary(), newFilms(), newCatalogue(), newAdvanced(), newPortal()}
}

// Names returns the names of the sites All returns.
func Names() []string {
	var ns []string
	for _, s := range All() {
		ns = append(ns, s.Name)
	}
	return ns
}

// ByName returns a fresh instance of the named site, or an error listing the names.
func ByName(name string) (*Site, error) {
	for _, s := range All() {
		if s.Name == name {
			return s, nil
		}
	}
	if name == "hostile" {
		return Hostile(), nil
	}
	return nil, fmt.Errorf("testsites: no site %q (have %s, hostile)", name, strings.Join(Names(), ", "))
}

// Has reports whether the site has the feature.
func (s *Site) Has(feature string) bool { return slices.Contains(s.Features, feature) }

// Field returns the named field's truth.
func (s *Site) Field(name string) (Field, bool) {
	for _, f := range s.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// Search returns the records a submission of the form with these values lists, over
// all its result pages, in display order. Missing fields keep their defaults. It
// returns no records when the site answers with an error or no-result page, and then
// the message that page shows.
func (s *Site) Search(v url.Values) (records []Record, message string) {
	return s.search(v)
}

// Record returns the catalogue record with the id.
func (s *Site) Record(id string) (Record, bool) {
	s.indexOnce.Do(func() {
		s.byID = make(map[string]int, len(s.Records))
		for i, r := range s.Records {
			s.byID[r.ID] = i
		}
	})
	i, ok := s.byID[id]
	if !ok {
		return Record{}, false
	}
	return s.Records[i], true
}

// SetLatency makes every page and API response wait d before it is written (a slow
// backend, as on a real site). Zero turns it off.
func (s *Site) SetLatency(d time.Duration) { s.latency.Store(int64(d)) }

// NewServer starts an httptest server for the site on 127.0.0.1. Close it when done.
func (s *Site) NewServer() *httptest.Server { return httptest.NewServer(s.Handler) }

// Count returns how many requests the site answered for "METHOD /path" (the path without
// query), e.g. Count("POST /login").
func (s *Site) Count(methodPath string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[methodPath]
}

// Requests returns the total number of requests the site answered.
func (s *Site) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.counts {
		n += c
	}
	return n
}

// Violations returns what a polite, safe prober must never do and the site saw: a
// submitted login, registration or newsletter form; a request to a path robots.txt
// disallows.
func (s *Site) Violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.viol)
}

func (s *Site) violation(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.viol = append(s.viol, fmt.Sprintf(format, args...))
}

// robotsTxt is what every site serves at /robots.txt.
const robotsTxt = "User-agent: *\nDisallow: /private/\n\nUser-agent: trawl-test-blocked\nDisallow: /\n"

// serve wraps a site's mux with request counting, robots.txt, the /private/ trap and the
// latency.
func (s *Site) serve(mux *http.ServeMux) http.Handler {
	mux.HandleFunc("GET /robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if s.robots != "" {
			fmt.Fprint(w, s.robots)
			return
		}
		fmt.Fprint(w, robotsTxt)
	})
	mux.HandleFunc("/private/", func(w http.ResponseWriter, r *http.Request) {
		s.violation("%s %s: robots.txt disallows /private/", r.Method, r.URL.Path)
		writePage(w, http.StatusOK, s.Name, "Staff area", "<p>Internal pages.</p>")
	})
	s.counts = map[string]int{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.counts[r.Method+" "+r.URL.Path]++
		s.mu.Unlock()
		if d := time.Duration(s.latency.Load()); d > 0 && r.URL.Path != "/robots.txt" {
			select {
			case <-time.After(d):
			case <-r.Context().Done():
				return
			}
		}
		mux.ServeHTTP(w, r)
	})
}

var markerRE = regexp.MustCompile(`\s(?:data-record|data-field)="[^"]*"`)

// StripMarkers removes the data-record and data-field answer-key attributes from an
// HTML page (as served, or as serialised by a browser).
func StripMarkers(html string) string { return markerRE.ReplaceAllString(html, "") }
