package realsites

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/probe"
)

// root is the module's root directory (the tests run in internal/realsites).
var root = func() string {
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return filepath.Join(wd, "..", "..")
}()

var (
	buildOnce sync.Once
	trawlBin  string
	buildErr  error
)

// trawl builds bin/trawl once per test binary into a temporary directory and returns
// its path; $TRAWL_BIN names a binary built already (load tests run several test
// processes at once).
func trawl(t *testing.T) string {
	t.Helper()
	if b := os.Getenv("TRAWL_BIN"); b != "" {
		return b
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "trawl-realsites-")
		if err != nil {
			buildErr = err
			return
		}
		trawlBin = filepath.Join(dir, "trawl")
		cmd := exec.Command("go", "build", "-o", trawlBin, "./cmd/trawl")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/trawl: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return trawlBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if trawlBin != "" && os.Getenv("TRAWL_BIN") == "" {
		_ = os.RemoveAll(filepath.Dir(trawlBin))
	}
	os.Exit(code)
}

// site is one real test site.
type site struct {
	name string // scripts/sites/<name>.sh
	url  string // the page trawl is given
	args []string
	form formWant
	// truth returns the keys of the records the application lists on the result page
	// at pageURL (nil, false when the page is not a result page of the form), and the
	// number of them the page shows (expected), from the application's data.
	truth func(t *testing.T, pageURL string) (keys map[string]bool, expected int, ok bool)
	// key returns the key of a record (a post ID, a page id, a commit hash, a URL), or "".
	key func(r record) string
	// schema is what the output schema must hold (issue 15).
	schema schemaWant
}

// formWant is what the chosen form must be.
type formWant struct {
	action  string // the path of the form's action
	method  string
	keyword string // the keyword box; "" for a filter form without one
}

// record is the part of records.jsonl the tests read.
type record struct {
	Page   string `json:"page"`
	Leaves []struct {
		Path string `json:"path"`
		Text string `json:"text"`
		Href string `json:"href"`
	} `json:"leaves"`
}

// script runs scripts/sites/<name>.sh with args and returns its standard output.
func (s site) script(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("bash", append([]string{filepath.Join(root, "scripts", "sites", s.name+".sh")}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("scripts/sites/%s.sh %s: %v\n%s", s.name, strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}

// need skips (or, with TRAWL_REQUIRE_SITES=1, fails) when the site or the browser is
// missing.
func (s site) need(t *testing.T) {
	t.Helper()
	if os.Getenv("TRAWL_BROWSER_TESTS") != "1" {
		t.Skip("real-site test: set TRAWL_BROWSER_TESTS=1 (and install chromium) to run it")
	}
	if _, err := probe.FindChrome(""); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "sites", s.name+".sh"), "status")
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := fmt.Sprintf("the %s site is not running (%s): start it with scripts/sites/%s.sh", s.name, strings.TrimSpace(string(out)), s.name)
		if os.Getenv("TRAWL_REQUIRE_SITES") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

// result is what one trawl process did.
type result struct {
	exit           int
	stdout, stderr string
	dir            string // the run directory
	summary        map[string]any
}

// run runs `trawl run` on the site into a fresh output directory.
func (s site) run(t *testing.T, extra ...string) result {
	t.Helper()
	out := t.TempDir()
	args := append([]string{"run", s.url, "--out", out, "--ignore-robots", "--delay", "50ms",
		"--rounds", "0", "--no-screenshots", "--no-report", "--json"}, s.args...)
	args = append(args, extra...)
	cmd := exec.Command(trawl(t), args...)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: so.String(), stderr: se.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.exit = ee.ExitCode()
	case err != nil:
		t.Fatalf("trawl %s: %v", strings.Join(args, " "), err)
	}
	t.Logf("trawl %s: exit %d after %v", strings.Join(args, " "), r.exit, time.Since(start).Round(time.Second))
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if e.IsDir() {
			r.dir = filepath.Join(out, e.Name())
		}
	}
	if r.dir == "" {
		t.Fatalf("trawl wrote no run directory in %s (exit %d)\nstderr:\n%s", out, r.exit, tail(r.stderr, 40))
	}
	_ = json.Unmarshal(so.Bytes(), &r.summary)
	return r
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// check runs the checks of issue 14 on a run of the site.
func (s site) check(t *testing.T, r result) {
	f, err := probe.ReadForm(r.dir)
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, tail(r.stderr, 30))
	}
	probes, err := probe.ReadProbes(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("form", func(t *testing.T) {
		au, _ := url.Parse(f.Action)
		kwOK := len(f.KeywordFields) > 0 && f.KeywordFields[0] == s.form.keyword
		if s.form.keyword == "" { // a filter form: no box takes words
			kwOK = len(f.KeywordFields) == 0
		}
		if f.Class != probe.ClassSearch || au == nil || au.Path != s.form.action || !strings.EqualFold(f.Method, s.form.method) || !kwOK {
			t.Errorf("chose the form %s: class %s (%.2f), %s %s, keyword fields %v; want a search form %s %s with keyword box %q",
				f.XPath, f.Class, f.Confidence, f.Method, f.Action, f.KeywordFields, s.form.method, s.form.action, s.form.keyword)
		}
	})
	failed, unanswered := 0, 0
	t.Run("captures", func(t *testing.T) {
		if len(probes) == 0 {
			t.Fatal("no probe recorded")
		}
		for _, p := range probes {
			if p.Error != "" {
				failed++
				t.Logf("probe %d (%s %v) failed after %d attempts: %s", p.N, p.Kind, p.Assignment, p.Attempts, p.Error)
			}
			if p.Unanswered != "" {
				// The site's answer to an empty query, not a failure: only a probe
				// with no word typed may end so, and it keeps no page.
				unanswered++
				t.Logf("probe %d (%s %v) not answered: %s", p.N, p.Kind, p.Assignment, p.Unanswered)
				if len(p.Terms) > 0 || len(p.Pages) > 0 || p.Error != "" {
					t.Errorf("probe %d (%s %v): terms %v, %d pages, error %q, yet counted as an unanswered empty query", p.N, p.Kind, p.Assignment, p.Terms, len(p.Pages), p.Error)
				}
			}
			for _, ref := range p.Pages {
				if why := stub(filepath.Join(r.dir, ref.File), ref); why != "" {
					t.Errorf("probe %d (%s %v) kept %s: %s", p.N, p.Kind, p.Assignment, ref.File, why)
				}
			}
		}
		retried := 0
		for _, p := range probes {
			if p.Attempts > 1 {
				retried++
			}
		}
		t.Logf("%d probes: %d failed (each with its reason), %d not answered (empty queries), %d tried more than once", len(probes), failed, unanswered, retried)
		if failed == len(probes) {
			t.Errorf("all %d probes failed", failed)
		}
	})
	t.Run("records", func(t *testing.T) { s.checkRecords(t, r, probes) })
	t.Run("schema", func(t *testing.T) { s.checkSchema(t, r, probes) })
	t.Run("exit-status", func(t *testing.T) {
		// Exit 0 when nothing failed, an empty query the site does not answer
		// included; 3 when a probe really failed (README "Exit codes").
		want := 0
		if failed > 0 {
			want = 3
		}
		if r.exit != want {
			t.Errorf("exit status %d, want %d (%d of %d probes failed)\nstderr:\n%s", r.exit, want, failed, len(probes), tail(r.stderr, 20))
		}
	})
	t.Run("messages", func(t *testing.T) {
		// One prefix per message: no "probe: probe:", no "trawl: trawl run:".
		for _, line := range strings.Split(r.stderr, "\n") {
			parts := strings.Split(line, ": ")
			for i := 1; i < len(parts); i++ {
				if parts[i] == parts[i-1] && len(strings.Fields(parts[i])) <= 3 {
					t.Errorf("the prefix %q repeats: %s", parts[i], line)
				}
			}
			if strings.HasPrefix(line, "trawl: trawl") {
				t.Errorf("two trawl prefixes: %s", line)
			}
		}
		if got, ok := r.summary["failed_probes"].(float64); !ok || int(got) != failed {
			t.Errorf("the --json summary counts %v failed probes, probes.jsonl %d", r.summary["failed_probes"], failed)
		}
		if got, ok := r.summary["unanswered_probes"].(float64); !ok || int(got) != unanswered {
			t.Errorf("the --json summary counts %v unanswered probes, probes.jsonl %d", r.summary["unanswered_probes"], unanswered)
		}
	})
}

// stub says why a kept page cannot be a result page ("" when it can): empty, a head
// without body content, a missing file, or no HTTP status.
func stub(path string, ref probe.PageRef) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	if ref.Status == 0 && strings.HasPrefix(ref.URL, "http") {
		return "status 0"
	}
	if len(b) != ref.Bytes {
		return fmt.Sprintf("%d bytes on disk, %d in probes.jsonl", len(b), ref.Bytes)
	}
	i := bytes.Index(bytes.ToLower(b), []byte("<body"))
	if i < 0 {
		return fmt.Sprintf("no <body> (%d bytes)", len(b))
	}
	text := tagRE.ReplaceAll(b[i:], nil)
	if n := len(bytes.TrimSpace(spaceRE.ReplaceAll(text, []byte(" ")))); n < 40 {
		return fmt.Sprintf("a stub: %d characters of text in its body", n)
	}
	return ""
}

var (
	tagRE   = regexp.MustCompile(`(?s)<script.*?</script>|<style.*?</style>|<[^>]*>`)
	spaceRE = regexp.MustCompile(`\s+`)
)

// maxSampled is how many result pages the records check reads.
const maxSampled = 8

// checkRecords compares the records of sampled result pages with the application's own
// list for the same page: precision = records that are listed items / records, recall
// = listed items found among the records / items listed, both over the sampled pages.
func (s site) checkRecords(t *testing.T, r result, probes []probe.Probe) {
	recs := map[string][]record{}
	fh, err := os.Open(filepath.Join(r.dir, "records.jsonl"))
	if err != nil {
		t.Fatalf("no records: %v\nstderr:\n%s", err, tail(r.stderr, 20))
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var rc record
		if err := json.Unmarshal(sc.Bytes(), &rc); err != nil {
			t.Fatalf("records.jsonl: %v", err)
		}
		recs[rc.Page] = append(recs[rc.Page], rc)
	}
	pages := sampledPages(probes)
	var listed, found, extracted, correct int
	for _, ref := range pages {
		keys, expected, ok := s.truth(t, ref.URL)
		if !ok {
			continue
		}
		got := map[string]bool{}
		good := 0
		for _, rc := range recs[ref.File] {
			k := s.key(rc)
			if keys[k] && !got[k] {
				good++
			}
			if k != "" {
				got[k] = true
			}
		}
		hit := 0
		for k := range keys {
			if got[k] {
				hit++
			}
		}
		hit = min(hit, expected)
		t.Logf("%s (%s): %d records, %d of them listed; %d listed, %d of them found", ref.File, ref.URL, len(recs[ref.File]), good, expected, hit)
		listed += expected
		found += hit
		extracted += len(recs[ref.File])
		correct += good
	}
	if listed == 0 {
		t.Fatalf("no sampled result page lists anything (%d pages sampled)", len(pages))
	}
	p, rcl := 1.0, float64(found)/float64(listed)
	if extracted > 0 {
		p = float64(correct) / float64(extracted)
	}
	t.Logf("records on %d sampled pages: P=%.3f (%d/%d) R=%.3f (%d/%d)", len(pages), p, correct, extracted, rcl, found, listed)
	if p < 0.98 || rcl < 0.98 {
		t.Errorf("records against %s's own data: P=%.3f R=%.3f, want both ≥ 0.98", s.name, p, rcl)
	}
}

// query parses a page URL's query, with ';' as a separator too (gitweb).
func query(raw string) url.Values {
	u, err := url.Parse(raw)
	if err != nil {
		return url.Values{}
	}
	q, _ := url.ParseQuery(strings.ReplaceAll(u.RawQuery, ";", "&"))
	return q
}

// lines splits a truth command's output into its non-empty lines.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// hrefKey returns the first submatch of re in the record's links.
func hrefKey(r record, re *regexp.Regexp) string {
	for _, l := range r.Leaves {
		if m := re.FindStringSubmatch(l.Href); m != nil {
			return m[1]
		}
	}
	return ""
}

var (
	wpPostRE   = regexp.MustCompile(`[?&]p=(\d+)`)
	dokuIDRE   = regexp.MustCompile(`[?&]id=([^&#]+)`)
	gitHashRE  = regexp.MustCompile(`[;?&]h=([0-9a-f]{40})`)
	omegaDocRE = regexp.MustCompile(`^https?://[^/]+(/git-doc/[^#?]*)`)
)

func wordpress() site {
	return site{
		name: "wordpress",
		url:  "http://127.0.0.1:18086/?page_id=999999", // its 404 page: Twenty Twenty-One shows the search form there
		form: formWant{action: "/", method: "GET", keyword: "s"},
		truth: func(t *testing.T, pageURL string) (map[string]bool, int, bool) {
			q := query(pageURL)
			if _, ok := q["s"]; !ok {
				return nil, 0, false
			}
			page := "1"
			if v := q.Get("paged"); v != "" {
				page = v
			}
			keys := map[string]bool{}
			for _, l := range lines(wordpress().script(t, "truth", q.Get("s"), page)) {
				id, _, _ := strings.Cut(l, "\t")
				keys[id] = true
			}
			return keys, len(keys), true
		},
		key: func(r record) string { return hrefKey(r, wpPostRE) },
		schema: schemaWant{
			attrs: func(t *testing.T, pageURL string) map[string]map[string]string {
				q := query(pageURL)
				if _, ok := q["s"]; !ok {
					return nil
				}
				page := "1"
				if v := q.Get("paged"); v != "" {
					page = v
				}
				return tsvAttrs(lines(wordpress().script(t, "truth", q.Get("s"), page)), "\t", "title", "date")
			},
			shown:  map[string]string{"title": "equal", "date": "date"},
			mapped: []string{"title"},
		},
	}
}

func dokuwiki() site {
	return site{
		name: "dokuwiki",
		url:  "http://127.0.0.1:18101/doku.php",
		form: formWant{action: "/doku.php", method: "GET", keyword: "q"},
		truth: func(t *testing.T, pageURL string) (map[string]bool, int, bool) {
			q := query(pageURL)
			if q.Get("do") != "search" {
				return nil, 0, false
			}
			keys := map[string]bool{}
			for _, l := range lines(dokuwiki().script(t, "truth", q.Get("q"))) {
				var hit struct{ ID string }
				if err := json.Unmarshal([]byte(l), &hit); err != nil {
					t.Fatalf("dokuwiki.sh truth: %v: %s", err, l)
				}
				keys[hit.ID] = true
			}
			return keys, len(keys), true
		},
		key: func(r record) string {
			k, _ := url.QueryUnescape(hrefKey(r, dokuIDRE))
			return k
		},
		schema: schemaWant{
			attrs: func(t *testing.T, pageURL string) map[string]map[string]string {
				q := query(pageURL)
				if q.Get("do") != "search" {
					return nil
				}
				out := map[string]map[string]string{}
				for _, l := range lines(dokuwiki().script(t, "truth", q.Get("q"))) {
					var hit struct{ ID, Title, Hits string }
					if err := json.Unmarshal([]byte(l), &hit); err != nil {
						t.Fatalf("dokuwiki.sh truth: %v: %s", err, l)
					}
					out[hit.ID] = map[string]string{"title": hit.Title, "hits": hit.Hits}
				}
				return out
			},
			shown: map[string]string{"title": "equal", "hits": "equal"},
			// "Last modified" labels a feature only when the sample holds pages of
			// several ages; the hit count is always there.
			labels:  []string{"Hits"},
			mapped:  []string{"title"},
			snippet: true,
		},
	}
}

func gitweb() site {
	return site{
		name: "gitweb",
		url:  "http://127.0.0.1:18102/gitweb.cgi?p=trawl.git;a=summary",
		form: formWant{action: "/gitweb.cgi", method: "GET", keyword: "s"},
		truth: func(t *testing.T, pageURL string) (map[string]bool, int, bool) {
			q := query(pageURL)
			st := q.Get("st")
			if q.Get("a") != "search" || (st != "commit" && st != "author" && st != "committer") || len(q.Get("s")) < 2 {
				return nil, 0, false
			}
			page := q.Get("pg")
			if page == "" {
				page = "0"
			}
			keys := map[string]bool{}
			for _, l := range lines(gitweb().script(t, "truth", st, q.Get("s"), page)) {
				h, _, _ := strings.Cut(l, " ")
				keys[h] = true
			}
			return keys, len(keys), true
		},
		key: func(r record) string { return hrefKey(r, gitHashRE) },
		schema: schemaWant{
			attrs: func(t *testing.T, pageURL string) map[string]map[string]string {
				q := query(pageURL)
				st := q.Get("st")
				if q.Get("a") != "search" || (st != "commit" && st != "author" && st != "committer") || len(q.Get("s")) < 2 {
					return nil
				}
				page := q.Get("pg")
				if page == "" {
					page = "0"
				}
				return tsvAttrs(lines(gitweb().script(t, "truth", st, q.Get("s"), page)), " ", "subject")
			},
			shown:   map[string]string{"subject": "prefix"},
			mapped:  []string{"subject"},
			snippet: true,
		},
	}
}

func omega() site {
	return site{
		name: "omega",
		url:  "http://127.0.0.1:18103/cgi-bin/omega",
		form: formWant{action: "/cgi-bin/omega", method: "GET", keyword: "P"},
		truth: func(t *testing.T, pageURL string) (map[string]bool, int, bool) {
			q := query(pageURL)
			if _, ok := q["P"]; !ok {
				return nil, 0, false
			}
			keys := map[string]bool{}
			matches := 0
			for _, l := range lines(omega().script(t, "truth", q.Get("P"))) {
				if n, ok := strings.CutPrefix(l, "matches "); ok {
					matches, _ = strconv.Atoi(n)
					continue
				}
				u, _, _ := strings.Cut(l, "\t")
				keys[u] = true
			}
			top, _ := strconv.Atoi(q.Get("TOPDOC"))
			return keys, max(0, min(10, matches-top)), true
		},
		key: func(r record) string { return hrefKey(r, omegaDocRE) },
		schema: schemaWant{
			attrs: func(t *testing.T, pageURL string) map[string]map[string]string {
				q := query(pageURL)
				if _, ok := q["P"]; !ok {
					return nil
				}
				var docs []string
				for _, l := range lines(omega().script(t, "truth", q.Get("P"))) {
					if !strings.HasPrefix(l, "matches ") {
						docs = append(docs, l)
					}
				}
				return tsvAttrs(docs, "\t", "caption")
			},
			shown:  map[string]string{"caption": "equal"},
			labels: []string{"Size"},
			// Omega's results show the start of each document, not the words that
			// matched: no trial can confirm what the box searches (thesis §3.4).
		},
	}
}

// fossilInfoRE finds the artifact hashes of a timeline entry's /info/ links; the last
// is the event's own artifact (a ticket entry links the ticket first, then the change).
var fossilInfoRE = regexp.MustCompile(`/info/([0-9a-f]{16})`)

// fossilTypes are the timeline's event types fossil.sh truth reads.
var fossilTypes = map[string]bool{"all": true, "ci": true, "t": true, "w": true, "e": true, "g": true}

func fossil() site {
	return site{
		name: "fossil",
		url:  "http://127.0.0.1:18104/timeline",
		// A filter form: event type, row count, view style; no keyword box.
		form: formWant{action: "/timeline", method: "GET"},
		truth: func(t *testing.T, pageURL string) (map[string]bool, int, bool) {
			q := query(pageURL)
			y := q.Get("y")
			if y == "" {
				y = "all"
			}
			// A tag filter (the advanced form) or an event type truth does not read.
			if !fossilTypes[y] || q.Get("t") != "" || q.Get("tl") != "" || q.Get("u") != "" || q.Get("c") != "" {
				return nil, 0, false
			}
			n, err := strconv.Atoi(q.Get("n"))
			if err != nil || n <= 0 {
				n = 50 // fossil's default for a missing or non-numeric row count
			}
			keys := map[string]bool{}
			for _, l := range lines(fossil().script(t, "truth", y, strconv.Itoa(n))) {
				h, _, _ := strings.Cut(l, "\t")
				keys[h] = true
			}
			return keys, len(keys), true
		},
		key: func(r record) string {
			k := ""
			for _, l := range r.Leaves {
				if m := fossilInfoRE.FindStringSubmatch(l.Href); m != nil {
					k = m[1]
				}
			}
			return k
		},
		// The filter fields map to no text feature; the check keeps to labels and
		// record identity.
		schema: schemaWant{attrs: func(*testing.T, string) map[string]map[string]string { return nil }},
	}
}

func TestWordPress(t *testing.T) { testSite(t, wordpress()) }
func TestDokuWiki(t *testing.T)  { testSite(t, dokuwiki()) }
func TestGitweb(t *testing.T)    { testSite(t, gitweb()) }
func TestOmega(t *testing.T)     { testSite(t, omega()) }
func TestFossil(t *testing.T)    { testSite(t, fossil()) }

func testSite(t *testing.T, s site) {
	s.need(t)
	r := s.run(t, "--max-probes", "16", "--max-submissions", "12")
	s.check(t, r)
}
