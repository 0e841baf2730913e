package probe

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/testsites"
)

var recordRE = regexp.MustCompile(`data-record="([^"]+)"`)

// recordIDs returns the answer-key record ids of a page, in order.
func recordIDs(html string) []string {
	var ids []string
	for _, m := range recordRE.FindAllStringSubmatch(html, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

func keywordOf(s *testsites.Site) string {
	for _, f := range s.Fields {
		if f.Keyword {
			return f.Name
		}
	}
	return ""
}

// TestSubmitMatchesTruth drives real Chromium against every test site: discover the
// search form, submit it like a person, follow the site's kind of pagination, and
// compare the records on each page with the site's ground truth.
func TestSubmitMatchesTruth(t *testing.T) {
	needBrowser(t)
	b := startBrowser(t, testOptions())
	o := testOptions()
	o.Tabs = 1
	o.MaxPagesPerProbe = 3
	p, err := NewProber(b, o)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	extra := map[string][]map[string]string{
		"bookshop":  {{"q": "love", "lang": "English"}},
		"library":   {{"query": "the", "year_from": "1990", "year_to": "1999"}},
		"films":     {{"q": "", "genre": "Crime"}},
		"catalogue": {{"a": "king"}},
		"advanced":  {{"decade": "1950", "format": "Ebook"}, {"author": "rowling", "rating": "4.5", "sort": "title"}},
		"portal":    {{"keywords": "harry"}},
	}
	for _, s := range testsites.All() {
		t.Run(s.Name, func(t *testing.T) {
			srv := s.NewServer()
			defer srv.Close()
			f := discoverSite(t, p, s, srv.URL)
			kw := keywordOf(s)
			cases := append([]map[string]string{{kw: "the"}, {kw: "a"}}, extra[s.Name]...)
			for _, vals := range cases {
				pages, err := p.Submit(t.Context(), f, vals)
				if err != nil {
					t.Fatalf("Submit(%v): %v", vals, err)
				}
				uv := url.Values{}
				for k, v := range vals {
					uv.Set(k, v)
				}
				truth, _ := s.Search(uv)
				want := len(truth)
				wantPages := min(o.MaxPagesPerProbe, (want+s.PageSize-1)/s.PageSize)
				if len(pages) != wantPages {
					t.Errorf("Submit(%v): %d pages, want %d (%d true records, %d per page); warnings %v", vals, len(pages), wantPages, want, s.PageSize, pageWarnings(pages))
				}
				for i, pg := range pages {
					lo := i * s.PageSize
					var wantIDs []string
					for _, r := range truth[lo:min(lo+s.PageSize, len(truth))] {
						wantIDs = append(wantIDs, r.ID)
					}
					if got := recordIDs(pg.HTML); !slices.Equal(got, wantIDs) {
						t.Errorf("Submit(%v) page %d (%s): %d records %v…, want %d %v…", vals, i+1, pg.URL, len(got), head(got), len(wantIDs), head(wantIDs))
					}
					if s.Has(testsites.FeatureAJAX) == pg.Navigated {
						t.Errorf("page %d: navigated = %v on a site with ajax = %v", i+1, pg.Navigated, s.Has(testsites.FeatureAJAX))
					}
					if pg.Navigated && pg.Status != 200 {
						t.Errorf("page %d: status %d", i+1, pg.Status)
					}
				}
			}
			// The nonsense word: no record; echoed where the template echoes.
			w := NonsenseWord(11)
			vals := map[string]string{kw: w}
			pages, err := p.Submit(t.Context(), f, vals)
			if err != nil {
				t.Fatalf("nonsense: %v", err)
			}
			if len(pages) != 1 || len(recordIDs(pages[0].HTML)) != 0 {
				t.Errorf("nonsense: %d pages, %d records", len(pages), len(recordIDs(pages[0].HTML)))
			}
			if s.Has(testsites.FeatureEchoError) && !strings.Contains(pages[0].HTML, w) {
				t.Errorf("nonsense word not echoed on the error page of an echoing site")
			}
			if v := s.Violations(); len(v) != 0 {
				t.Errorf("violations: %v", v)
			}
		})
	}
}

// discoverSite runs Discover on a test site's form page and returns its search form
// (see truthForm for a classifier that disagrees with the site's truth).
func discoverSite(t testing.TB, p *Prober, s *testsites.Site, base string) Form {
	t.Helper()
	d, err := p.Discover(context.Background(), base+s.FormPath)
	if err != nil && !errors.Is(err, ErrNotSearchForm) {
		t.Fatal(err)
	}
	return truthForm(t, s, d.Forms)
}

func head(s []string) []string { return s[:min(len(s), 4)] }

func pageWarnings(ps []Page) []string {
	var w []string
	for _, p := range ps {
		w = append(w, p.Warnings...)
	}
	return w
}
