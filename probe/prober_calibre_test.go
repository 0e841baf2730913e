package probe

import (
	"errors"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// calibreURL is the search page of the calibre content server test site
// (../shared/sites/calibre: setup.sh, then start.sh).
func calibreURL() string {
	if u := os.Getenv("TRAWL_CALIBRE_URL"); u != "" {
		return u
	}
	return "http://127.0.0.1:18082/mobile"
}

var calibreCount = regexp.MustCompile(`Books (\d+) to (\d+) of (\d+)`)

// TestProbeCalibre probes a real web application: the calibre content server with
// 3,100 real book records. It runs when the site is up.
func TestProbeCalibre(t *testing.T) {
	needBrowser(t)
	u := calibreURL()
	c := &http.Client{Timeout: 3 * time.Second}
	resp, err := c.Get(u)
	if err != nil {
		t.Skipf("the calibre test site is not running at %s (%v): run ../shared/sites/calibre/setup.sh and start.sh, or set TRAWL_CALIBRE_URL", u, err)
	}
	_ = resp.Body.Close()

	o := testOptions()
	o.Delay = 50 * time.Millisecond
	o.MaxPagesPerProbe = 2
	b := startBrowser(t, o)

	// calibre's robots.txt disallows everything: trawl refuses unless told the site is
	// one's own.
	polite, _ := NewProber(b, o)
	defer polite.Close()
	if _, err := polite.Discover(t.Context(), u); !errors.Is(err, ErrBlocked) || !strings.Contains(err.Error(), "robots.txt") {
		t.Errorf("Discover with robots.txt honoured: err = %v, want a robots.txt refusal", err)
	}

	o.IgnoreRobots = true
	p, err := NewProber(b, o)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	d, err := p.Discover(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	f := d.Form()
	if f.Class != ClassSearch || len(f.KeywordFields) != 1 || f.KeywordFields[0] != "search" || f.Method != "GET" {
		t.Fatalf("calibre form: class %s, keyword fields %v, method %s", f.Class, f.KeywordFields, f.Method)
	}
	plan := Plan{
		{Kind: KindNonsense, Values: map[string]string{"search": NonsenseWord(5)}},
		{Kind: KindStopword, Values: map[string]string{"search": "the"}},
		{Kind: KindPlan, Values: map[string]string{"search": "dostoevsky"}},
	}
	rec := &memRecorder{}
	sum, err := p.Run(t.Context(), f, plan, rec)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Probes != 3 || sum.Failed != 0 {
		t.Fatalf("summary %+v; probes %+v", sum, rec.probes)
	}
	for i, pr := range rec.probes {
		pages := rec.pages[i]
		first := calibreCount.FindStringSubmatch(pages[0].HTML)
		if first == nil {
			t.Fatalf("probe %d (%v): no \"Books X to Y of N\" on %s", pr.N, pr.Assignment, pages[0].URL)
		}
		total, _ := strconv.Atoi(first[3])
		books := strings.Count(pages[0].HTML, `class="first-line"`)
		switch pr.Kind {
		case KindNonsense:
			if total != 0 || books != 0 {
				t.Errorf("nonsense: %d of %d books", books, total)
			}
		default:
			if total == 0 || books == 0 || books != min(total, 25) {
				t.Errorf("probe %v: %d books listed, %d in all", pr.Assignment, books, total)
			}
			if total > 25 && (len(pages) != 2 || !strings.Contains(pages[1].HTML, "Books 26 to")) {
				t.Errorf("probe %v: pagination: %d pages", pr.Assignment, len(pages))
			}
		}
		if pr.Kind == KindPlan && !strings.Contains(strings.ToLower(pages[0].HTML), "dostoevsky") {
			t.Error("the Dostoevsky probe lists no Dostoevsky book")
		}
	}
}
