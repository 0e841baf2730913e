package sparql_test

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rdftest"
	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/ontology"
	"github.com/trawl-dev/trawl/ontology/sparql"
)

var _ interface {
	align.KB
	align.BatchFactReader
} = (*sparql.KB)(nil)

// demoRecords is the labeled graph of the demo site's book cards, as TestKBParityDemo of
// package ontology builds it.
func demoRecords(t testing.TB) *graph.Memory {
	t.Helper()
	site := testsites.Demo()
	const ns = "https://trawl.invalid/src/demo/"
	var recs []graph.Triple
	for _, r := range site.Records {
		s := graph.NewIRI(ns + "rec/" + r.ID)
		recs = append(recs, graph.Triple{S: s, P: graph.NewIRI(graph.RDFType), O: graph.NewIRI(ns + "Record")})
		for _, attr := range site.Attributes {
			v := r.Values[attr]
			if v == "" {
				continue
			}
			o := graph.NewLiteral(v)
			if attr == "year" {
				o = graph.NewTyped(v, graph.XSD+"gYear")
			}
			recs = append(recs, graph.Triple{S: s, P: graph.NewIRI(ns + "p/" + attr), O: o})
		}
	}
	m, err := graph.NewMemory(recs)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func alignment(t *testing.T, kb1, kb2 align.KB) (string, *align.Result) {
	t.Helper()
	res, err := align.Align(t.Context(), kb1, kb2, align.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := align.WriteTSV(&b, res); err != nil {
		t.Fatal(err)
	}
	b.WriteString("--- links\n")
	if err := align.WriteLinks(&b, res, res.Options.LinkThreshold); err != nil {
		t.Fatal(err)
	}
	return b.String(), res
}

// TestDemoParity aligns the demo site's records with the demo KB once in the Badger
// store and once in Virtuoso (loaded by scripts/sites/virtuoso.sh from the same dump),
// read through the SPARQL KB: the alignments must be equal line for line. A second KB
// on the same endpoint reads the relation statistics from the cache file.
func TestDemoParity(t *testing.T) {
	ep := rdftest.Virtuoso(t)
	ctx := t.Context()
	st, err := ontology.OpenDemo(ctx, ontology.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	o := sparql.DefaultOptions()
	o.Graph = rdftest.DemoGraph
	o.Cache = filepath.Join(t.TempDir(), "kb-cache.json")
	kb, err := sparql.Open(ctx, ep.SPARQL(), o)
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for _, r := range st.Stats().Relations {
		if !r.Taxonomy {
			want += r.Facts
		}
	}
	if got := kb.Facts(); got != want {
		t.Errorf("the SPARQL KB has %d non-taxonomy facts, the Badger store %d", got, want)
	}
	for _, r := range st.Relations() {
		iri := st.RelationIRI(r)
		r2, ok := kb.RelationID(iri)
		if !ok {
			t.Errorf("relation %s is not in the SPARQL KB", iri)
			continue
		}
		if a, b := st.Functionality(r), kb.Functionality(r2); a != b {
			t.Errorf("functionality of %s: Badger %v, SPARQL %v", iri, a, b)
		}
		if a, b := st.Functionality(r.Inverse()), kb.Functionality(r2.Inverse()); a != b {
			t.Errorf("inverse functionality of %s: Badger %v, SPARQL %v", iri, a, b)
		}
	}
	kb1 := demoRecords(t)
	ref, _ := alignment(t, kb1, st)
	start := time.Now()
	got, res := alignment(t, kb1, kb)
	stats := kb.Stats()
	if got != ref {
		if d := os.Getenv("SPARQL_PARITY_DUMP"); d != "" {
			os.WriteFile(filepath.Join(d, "badger.tsv"), []byte(ref), 0o644)
			os.WriteFile(filepath.Join(d, "sparql.tsv"), []byte(got), 0o644)
		}
		t.Errorf("the full alignments differ (%d vs %d lines; SPARQL_PARITY_DUMP=DIR writes both)", strings.Count(ref, "\n"), strings.Count(got, "\n"))
	}
	if a, b := linksOf(ref), linksOf(got); a != b {
		t.Errorf("links differ:\nbadger:\n%.2000s\nsparql:\n%.2000s", a, b)
	}
	if a, b := bestRelations(ref), bestRelations(got); a != b {
		t.Errorf("best relations differ:\nbadger:\n%s\nsparql:\n%s", a, b)
	}
	links := 0
	for _, m := range res.Instances {
		if m.Confidence >= res.Options.LinkThreshold {
			links++
		}
	}
	if links < 50 {
		t.Errorf("%d links: want most demo records linked", links)
	}
	t.Logf("same alignment (%d links) through Virtuoso in %v: %d queries, %d retries, %v in requests",
		links, time.Since(start).Round(time.Millisecond), stats.Queries, stats.Retries, stats.Time.Round(time.Millisecond))

	// The statistics come from the cache now: opening asks nothing.
	kbAgain, err := sparql.Open(ctx, ep.SPARQL(), o)
	if err != nil {
		t.Fatal(err)
	}
	if q := kbAgain.Stats().Queries; q != 0 {
		t.Errorf("a second Open asked %d queries, want 0 (the cache %s)", q, o.Cache)
	}
}

// TestEndpointErrors: a closed port, an endpoint that refuses every query, one that
// answers 503 (retried, then an error), one that answers HTML, and a bad URL each give an
// ErrEndpoint error that names the endpoint.
func TestEndpointErrors(t *testing.T) {
	ctx := t.Context()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/sparql"
	l.Close()
	var calls503 atomic.Int32
	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Virtuoso 37000 Error SP030: SPARQL compiler, line 1: syntax error", http.StatusBadRequest)
	}))
	defer refuse.Close()
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls503.Add(1)
		http.Error(w, "overloaded", http.StatusServiceUnavailable)
	}))
	defer busy.Close()
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html>login</html>"))
	}))
	defer html.Close()
	o := sparql.DefaultOptions()
	o.Retries = 2
	o.Timeout = 2 * time.Second
	for _, c := range []struct{ name, url, want string }{
		{"down", closed, "down or unreachable"},
		{"refused", refuse.URL, "refused the query (HTTP 400 Bad Request): Virtuoso 37000"},
		{"busy", busy.URL, "HTTP 503"},
		{"html", html.URL, "not SPARQL JSON results"},
		{"not http", "ftp://example.org/sparql", "not an http(s) URL"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := sparql.Open(ctx, c.url, o)
			if err == nil || !errors.Is(err, sparql.ErrEndpoint) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want ErrEndpoint with %q", err, c.want)
			}
			if c.name != "not http" && !strings.Contains(err.Error(), strings.TrimPrefix(c.url, "http://")) {
				t.Errorf("error %v does not name the endpoint", err)
			}
		})
	}
	if n := calls503.Load(); n != 3 {
		t.Errorf("the 503 endpoint was asked %d times, want 3 (1 + 2 retries)", n)
	}
}

// TestEmptyGraph: a graph the endpoint does not have is an error, not an empty KB.
func TestEmptyGraph(t *testing.T) {
	ep := rdftest.Virtuoso(t)
	o := sparql.DefaultOptions()
	o.Graph = "urn:trawl:no-such-graph"
	_, err := sparql.Open(t.Context(), ep.SPARQL(), o)
	if err == nil || !strings.Contains(err.Error(), "holds no facts") {
		t.Fatalf("error %v, want 'holds no facts'", err)
	}
}

func linksOf(alignment string) string {
	_, links, _ := strings.Cut(alignment, "--- links\n")
	return links
}

// bestRelations returns, for each KB1 path of the relation lines, its KB2 path of the
// highest confidence.
func bestRelations(alignment string) string {
	type best struct {
		right string
		conf  float64
	}
	m := map[string]best{}
	for _, l := range strings.Split(alignment, "\n") {
		f := strings.Split(l, "\t")
		if len(f) != 4 || f[0] != "relation" {
			continue
		}
		var c float64
		fmt.Sscan(f[3], &c)
		if b, ok := m[f[1]]; !ok || c > b.conf {
			m[f[1]] = best{f[2], c}
		}
	}
	var out []string
	for l, b := range m {
		out = append(out, l+" ⊆ "+b.right)
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}
