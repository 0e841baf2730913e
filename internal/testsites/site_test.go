package testsites

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var recordRE = regexp.MustCompile(`data-record="([^"]+)"`)
var tokenRE = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// client is a plain HTTP client with a cookie jar (sessions).
func client(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar}
}

func get(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func postForm(t *testing.T, c *http.Client, u string, v url.Values) (int, string) {
	t.Helper()
	resp, err := c.PostForm(u, v)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// maxServedPages caps the result pages served() follows.
const maxServedPages = 8

// served submits v to the site over plain HTTP, as its form would, follows the result
// pages (at most maxServedPages), and returns the record ids in the order served.
func served(t *testing.T, s *Site, base string, v url.Values) []string {
	t.Helper()
	c := client(t)
	var ids []string
	collect := func(body string) int {
		n := 0
		for _, m := range recordRE.FindAllStringSubmatch(body, -1) {
			ids = append(ids, m[1])
			n++
		}
		if len(ids) >= maxServedPages*s.PageSize {
			return 0 // stop
		}
		return n
	}
	switch s.Name {
	case "bookshop", "advanced", "catalogue", "portal":
		path, param, step := map[string]string{"bookshop": "/search", "advanced": "/advanced/results", "catalogue": "/catalogue/results", "portal": "/find"}[s.Name],
			map[string]string{"bookshop": "page", "advanced": "page", "catalogue": "p", "portal": "start"}[s.Name], 1
		if s.Name == "portal" {
			step = s.PageSize
		}
		for p := 1; ; p++ {
			q := with(v, param, strconv.Itoa(p))
			if s.Name == "portal" {
				q = with(v, param, strconv.Itoa((p-1)*step))
			}
			code, body := get(t, c, base+path+"?"+q.Encode())
			if code != http.StatusOK {
				t.Fatalf("%s page %d: status %d", s.Name, p, code)
			}
			if collect(body) < s.PageSize {
				return ids
			}
		}
	case "library":
		_, form := get(t, c, base+"/")
		m := tokenRE.FindStringSubmatch(form)
		if m == nil {
			t.Fatal("library: no CSRF token in the form page")
		}
		for p := 1; ; p++ {
			q := with(v, "csrf_token", m[1])
			q.Set("page", strconv.Itoa(p))
			code, body := postForm(t, c, base+"/search", q)
			if code != http.StatusOK {
				t.Fatalf("library page %d: status %d", p, code)
			}
			if collect(body) < s.PageSize {
				return ids
			}
		}
	case "films":
		for p := 1; ; p++ {
			code, body := get(t, c, base+"/api/films?"+with(v, "page", strconv.Itoa(p)).Encode())
			if code != http.StatusOK {
				t.Fatalf("films page %d: status %d", p, code)
			}
			var out struct {
				Items []struct{ ID string }
			}
			if err := json.Unmarshal([]byte(body), &out); err != nil {
				t.Fatal(err)
			}
			for _, it := range out.Items {
				ids = append(ids, it.ID)
			}
			if len(out.Items) < s.PageSize || len(ids) >= maxServedPages*s.PageSize {
				return ids
			}
		}
	}
	t.Fatalf("no client for site %s", s.Name)
	return nil
}

func TestSitesServeTheirTruth(t *testing.T) {
	for _, s := range All() {
		t.Run(s.Name, func(t *testing.T) {
			srv := s.NewServer()
			defer srv.Close()
			code, body := get(t, client(t), srv.URL+s.FormPath)
			if code != http.StatusOK || !strings.Contains(body, "<form") {
				t.Fatalf("form page %s: status %d, has form %v", s.FormPath, code, strings.Contains(body, "<form"))
			}
			kw := ""
			for _, f := range s.Fields {
				if f.Keyword {
					kw = f.Name
				}
			}
			if kw == "" {
				t.Fatal("no keyword field in the truth")
			}
			queries := []url.Values{
				{kw: {"the"}}, {kw: {"a"}}, {kw: {"love"}}, {kw: {"qzxwvkjhgfq"}}, {kw: {"Harry Potter"}},
			}
			for _, f := range s.Fields {
				if f.Type == "select" && f.Match != MatchNone {
					vals := distinct(s.Records, f.Attributes[0])
					if f.Match == MatchDecade {
						vals = decades(s.Records, 1900)
					}
					queries = append(queries, url.Values{kw: {"e"}, f.Name: {vals[len(vals)/2]}})
				}
			}
			distinctSeen := map[string]bool{}
			for _, q := range queries {
				want, msg := s.Search(q)
				got := served(t, s, srv.URL, q)
				var wantIDs []string
				for _, r := range want {
					distinctSeen[r.ID] = true
					if len(wantIDs) < maxServedPages*s.PageSize {
						wantIDs = append(wantIDs, r.ID)
					}
				}
				if !slices.Equal(got, wantIDs) {
					t.Errorf("query %v: served %d records, truth %d (%q)\nserved %v\ntruth %v", q, len(got), len(wantIDs), msg, head(got), head(wantIDs))
				}
				if len(want) == 0 && msg == "" {
					t.Errorf("query %v: no records and no message", q)
				}
			}
			if got := s.Violations(); len(got) != 0 {
				t.Errorf("violations: %v", got)
			}
			if len(distinctSeen) < 3*s.PageSize && s.Kind == "book" {
				t.Errorf("stop words and letters reach only %d distinct records", len(distinctSeen))
			}
		})
	}
}

func head(s []string) []string { return s[:min(len(s), 5)] }

func TestRecordValuesAreMarked(t *testing.T) {
	for _, s := range All() {
		if s.Has(FeatureJS) {
			continue // rendered by the browser; the prober's tests check it
		}
		t.Run(s.Name, func(t *testing.T) {
			srv := s.NewServer()
			defer srv.Close()
			kw := s.Fields[0].Name
			var body string
			c := client(t)
			switch s.Method {
			case "GET":
				_, form := get(t, c, srv.URL+s.FormPath)
				action := regexp.MustCompile(`<form[^>]*action="([^"]+)"[^>]*method="get"`).FindStringSubmatch(form)
				if s.Name == "portal" {
					action = []string{"", "/find"}
				}
				if action == nil {
					t.Fatal("no GET form action")
				}
				_, body = get(t, c, srv.URL+action[1]+"?"+url.Values{kw: {"harry"}}.Encode())
			case "POST":
				_, form := get(t, c, srv.URL+s.FormPath)
				tok := tokenRE.FindStringSubmatch(form)[1]
				_, body = postForm(t, c, srv.URL+"/search", url.Values{kw: {"harry"}, "csrf_token": {tok}})
			}
			ids := recordRE.FindAllStringSubmatch(body, -1)
			if len(ids) == 0 {
				t.Fatal("no record markers on the result page")
			}
			for _, m := range ids {
				rec, ok := s.Record(m[1])
				if !ok {
					t.Fatalf("marker %q is not a catalogue record", m[1])
				}
				for _, a := range s.Attributes {
					v := rec.Values[a]
					if v == "" {
						continue
					}
					if !strings.Contains(body, `data-field="`+a+`"`) || !strings.Contains(body, esc(v)) {
						t.Errorf("record %s: value %q of %s not on the page", rec.ID, v, a)
					}
				}
			}
			if strings.Contains(StripMarkers(body), "data-record") || strings.Contains(StripMarkers(body), "data-field") {
				t.Error("StripMarkers left a marker")
			}
		})
	}
}

func TestLibraryRequiresTheSessionToken(t *testing.T) {
	s, _ := ByName("library")
	srv := s.NewServer()
	defer srv.Close()
	c := client(t)
	code, _ := postForm(t, c, srv.URL+"/search", url.Values{"query": {"harry"}})
	if code != http.StatusForbidden {
		t.Errorf("POST without a session: status %d, want 403", code)
	}
	_, form := get(t, c, srv.URL+"/")
	tok := tokenRE.FindStringSubmatch(form)[1]
	code, _ = postForm(t, c, srv.URL+"/search", url.Values{"query": {"harry"}, "csrf_token": {"forged"}})
	if code != http.StatusForbidden {
		t.Errorf("POST with a forged token: status %d, want 403", code)
	}
	code, body := postForm(t, c, srv.URL+"/search", url.Values{"query": {"harry"}, "csrf_token": {tok}})
	if code != http.StatusOK || !recordRE.MatchString(body) {
		t.Errorf("POST with the token: status %d, records %v", code, recordRE.MatchString(body))
	}
	other := client(t) // another session cannot reuse the token
	get(t, other, srv.URL+"/")
	code, _ = postForm(t, other, srv.URL+"/search", url.Values{"query": {"harry"}, "csrf_token": {tok}})
	if code != http.StatusForbidden {
		t.Errorf("token of another session: status %d, want 403", code)
	}
}

func TestViolationsAreRecorded(t *testing.T) {
	s, _ := ByName("portal")
	srv := s.NewServer()
	defer srv.Close()
	c := client(t)
	if got := s.Violations(); len(got) != 0 {
		t.Fatalf("fresh site has violations %v", got)
	}
	postForm(t, c, srv.URL+"/login", url.Values{"username": {"x"}, "password": {"y"}})
	get(t, c, srv.URL+"/private/staff")
	got := s.Violations()
	if len(got) != 2 || !strings.Contains(got[0], "/login") || !strings.Contains(got[1], "/private/") {
		t.Errorf("violations = %v", got)
	}
	if s.Count("POST /login") != 1 {
		t.Errorf("Count(POST /login) = %d", s.Count("POST /login"))
	}
}

func TestSearchSemantics(t *testing.T) {
	s, _ := ByName("advanced")
	tests := []struct {
		name  string
		v     url.Values
		check func(r Record) bool
	}{
		{"title words", url.Values{"title": {"harry potter"}}, func(r Record) bool {
			return strings.Contains(strings.ToLower(r.Values["title"]), "harry") && strings.Contains(strings.ToLower(r.Values["title"]), "potter")
		}},
		{"decade", url.Values{"decade": {"1950"}}, func(r Record) bool { y, _ := strconv.Atoi(r.Values["year"]); return y >= 1950 && y <= 1959 }},
		{"formats", url.Values{"format": {"Ebook", "Hardcover"}}, func(r Record) bool { return r.Values["format"] != "Paperback" }},
		{"rating", url.Values{"rating": {"4.5"}}, func(r Record) bool { x, _ := strconv.ParseFloat(r.Values["rating"], 64); return x >= 4.5 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, msg := s.Search(tc.v)
			if len(res) == 0 {
				t.Fatalf("no results (%s)", msg)
			}
			for _, r := range res {
				if !tc.check(r) {
					t.Fatalf("record %s %v does not satisfy the query", r.ID, r.Values)
				}
			}
		})
	}
	if res, msg := s.Search(url.Values{}); len(res) != 0 || msg == "" {
		t.Errorf("empty advanced search: %d records, message %q", len(res), msg)
	}
}

func TestHostileServes(t *testing.T) {
	s := Hostile()
	srv := s.NewServer()
	defer srv.Close()
	c := client(t)
	code, body := get(t, c, srv.URL+"/robots.txt")
	if code != 200 || !strings.Contains(body, "Disallow: /blocked/") {
		t.Fatalf("robots.txt: %d %q", code, body)
	}
	resp, err := c.Get(srv.URL + HostileHuge + "/results?q=a")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if n < HugeSize*99/100 || n > HugeSize || resp.ContentLength != n {
		t.Errorf("huge page: %d bytes, Content-Length %d", n, resp.ContentLength)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err = noRedirect.Get(srv.URL + "/loop")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Errorf("loop: status %d", resp.StatusCode)
	}
}
