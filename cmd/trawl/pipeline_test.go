package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/output"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/runtest"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rdftest"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/probe"
)

// TestMain lets a test run the trawl command in a child process: with
// TRAWL_TEST_MAIN=1 the test binary is trawl, its arguments after "--".
func TestMain(m *testing.M) {
	if os.Getenv("TRAWL_TEST_MAIN") == "1" {
		args := os.Args[1:]
		if i := slices.Index(args, "--"); i >= 0 {
			args = args[i+1:]
		}
		root := newRootCommand()
		root.SetArgs(args)
		os.Exit(exitCode(root.ExecuteContext(context.Background()), os.Stderr))
	}
	os.Exit(m.Run())
}

// trawlCmd returns a command that runs trawl with args in a child process.
func trawlCmd(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "TRAWL_TEST_MAIN=1")
	return cmd
}

// TestDemo runs `trawl demo` as a user would and checks what it must show: title
// aligned to rdfs:label, author to a join through the author's label, the search field
// that takes authors named as such, valid N-Triples, and no login submitted.
func TestDemo(t *testing.T) {
	runtest.NeedBrowser(t)
	out := t.TempDir()
	const base = "https://data.example.org/books"
	cmd := trawlCmd("demo", "--out", out, "--port", "0", "--json", "--base", base)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("trawl demo: %v\n%s", err, stderr.String())
	}
	t.Logf("trawl demo took %v", time.Since(start).Round(time.Millisecond))
	var got output.Demo
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("demo --json output: %v\n%s", err, stdout.String())
	}
	rel := map[string]string{}
	for _, r := range got.Summary.Relations {
		name, target, _ := strings.Cut(r, " ⊆ ")
		rel[name] = target
	}
	if !strings.HasPrefix(rel["title"], "http://www.w3.org/2000/01/rdf-schema#label ") {
		t.Errorf("title aligned to %q, want rdfs:label (relations: %v)", rel["title"], got.Summary.Relations)
	}
	if !strings.HasPrefix(rel["author"], "http://schema.org/author / http://www.w3.org/2000/01/rdf-schema#label ") {
		t.Errorf("author aligned to %q, want schema:author / rdfs:label", rel["author"])
	}
	var authorField *pipeline.FieldUse
	for i, f := range got.Fields {
		if f.Field == "author" {
			authorField = &got.Fields[i]
		}
	}
	if authorField == nil || authorField.Relation != "http://schema.org/author / http://www.w3.org/2000/01/rdf-schema#label" {
		t.Errorf("the author field is not understood as taking authors: %+v (all: %+v)", authorField, got.Fields)
	}
	for _, f := range got.Files {
		if f.Triples == 0 {
			t.Errorf("%s is empty", f.File)
		}
	}
	// Every output is RDF 1.1 that rapper, rdflib and Virtuoso read, and the confidence
	// of an enrichment fact can be queried from the triple store (issue 16).
	t.Run("interop", func(t *testing.T) { checkInterop(t, got.Files, base) })
	if got.Summary.Links == 0 || got.Summary.NewFacts == 0 {
		t.Errorf("links %d, new facts %d: want both", got.Summary.Links, got.Summary.NewFacts)
	}
	if _, err := os.Stat(got.Summary.Report); err != nil {
		t.Errorf("report: %v", err)
	}
}

// batchSites serves the local test sites and writes a jobs file for them.
func batchSites(t *testing.T) (jobs string) {
	t.Helper()
	var lines []string
	for _, s := range testsites.All() {
		srv := httptest.NewServer(s.Handler)
		t.Cleanup(srv.Close)
		opts := "max-probes=8 pages-per-probe=2 rounds=1 guided-values=2 delay=0s"
		if s.Method == "POST" {
			opts += " allow-post=true"
		}
		lines = append(lines, srv.URL+s.FormPath+" "+opts)
		t.Cleanup(func() {
			if v := s.Violations(); len(v) > 0 {
				t.Errorf("%s: forbidden requests: %v", s.Name, v)
			}
		})
	}
	jobs = filepath.Join(t.TempDir(), "jobs.txt")
	if err := os.WriteFile(jobs, []byte("# the local test sites\n"+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return jobs
}

// comparable returns the files of a batch output that must not depend on
// interruptions, with the run-specific times taken out.
func comparable(t *testing.T, out string) map[string]string {
	t.Helper()
	files := map[string]string{}
	dirs, _ := filepath.Glob(filepath.Join(out, "*"))
	for _, d := range dirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() || strings.HasPrefix(filepath.Base(d), ".") {
			continue // not a run directory (the queue's store is .queue)
		}
		for _, name := range []string{"records.jsonl", "alignment.tsv", "links.nt", "enrichment.nt", "graph.nt"} {
			b, err := os.ReadFile(filepath.Join(d, name))
			if err != nil {
				files[filepath.Base(d)+"/"+name] = "missing"
				continue
			}
			var keep []string
			sc := bufio.NewScanner(bytes.NewReader(b))
			sc.Buffer(make([]byte, 1<<20), 16<<20)
			for sc.Scan() {
				l := sc.Text()
				// Times of probes and runs differ between runs by nature.
				if strings.Contains(l, "XMLSchema#dateTime") {
					continue
				}
				keep = append(keep, l)
			}
			slices.Sort(keep)
			files[filepath.Base(d)+"/"+name] = strings.Join(keep, "\n")
		}
	}
	return files
}

// TestBatchKillResume: a batch of the local test sites, killed twice at random moments
// (SIGKILL) and resumed, gives the same outputs as an uninterrupted batch.
func TestBatchKillResume(t *testing.T) {
	runtest.NeedBrowser(t)
	if testing.Short() {
		t.Skip("-short: the kill-and-resume batch takes minutes")
	}
	// Beside the tests that wait on a slow site; the kills fall at random moments
	// anyway, and the outputs must not depend on them.
	t.Parallel()
	jobs := batchSites(t)
	run := func(out string) {
		t.Helper()
		cmd := trawlCmd("batch", jobs, "--out", out, "--concurrency", "2", "-q")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("trawl batch: %v\n%s", err, b)
		}
	}
	want := t.TempDir()
	start := time.Now()
	run(want)
	full := time.Since(start)
	t.Logf("uninterrupted batch: %v", full.Round(time.Millisecond))

	got := t.TempDir()
	for kill := range 2 {
		cmd := trawlCmd("batch", jobs, "--out", got, "--concurrency", "2", "-q")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		at := time.Duration(rand.Int64N(int64(full*3/4))) + full/10
		time.Sleep(at)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		t.Logf("kill %d after %v", kill+1, at.Round(time.Millisecond))
	}
	run(got)
	w, g := comparable(t, want), comparable(t, got)
	if len(w) == 0 {
		t.Fatal("the uninterrupted batch wrote nothing")
	}
	for name, wv := range w {
		if g[name] != wv {
			t.Errorf("%s differs after kills and resume (%d vs %d bytes)", name, len(g[name]), len(wv))
		}
	}
	// Every source finished, and the state says so.
	var status []pipeline.JobStatus
	if err := rundir.ReadJSON(filepath.Join(got, "batch.json"), &status); err != nil {
		t.Fatal(err)
	}
	for _, s := range status {
		if s.State != "done" {
			t.Errorf("%s: state %s (%s)", s.URL, s.State, s.Error)
		}
	}
}

func TestRunRefusesNonHTTP(t *testing.T) {
	for _, u := range []string{"file:///etc/passwd", "ftp://x/", "not a url", "/relative"} {
		o := runOptions{Out: t.TempDir(), pipeline: pipeline.DefaultOptions()}
		o.pipeline.URL = u
		err := runRun(t.Context(), globalOptions{Quiet: true}, o, nil)
		if err == nil || exitCode(err, &bytes.Buffer{}) != exitUsage {
			t.Errorf("trawl run %s: %v, want a usage error", u, err)
		}
	}
}

// TestFormsLivePage renders a live page in Chromium: the portal site's login,
// newsletter and search forms are told apart.
func TestFormsLivePage(t *testing.T) {
	runtest.NeedBrowser(t)
	site, err := testsites.ByName("portal")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site.Handler)
	defer srv.Close()
	var out bytes.Buffer
	if err := runForms(t.Context(), globalOptions{Quiet: true}, formsOptions{Page: srv.URL + "/"}, &out); err != nil {
		t.Fatal(err)
	}
	var doc output.FormsJSON
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	classes := map[probe.Class]int{}
	for _, f := range doc.Forms {
		classes[f.Class]++
		if f.Class == probe.ClassSearch && !slices.Equal(f.KeywordFields, []string{"keywords"}) {
			t.Errorf("search form keyword fields %v, want [keywords]", f.KeywordFields)
		}
	}
	if classes[probe.ClassSearch] != 1 || classes[probe.ClassLogin] != 1 {
		t.Errorf("classes %v, want one search and one login form", classes)
	}
}

// TestRunCalibre runs the whole pipeline on the real calibre content server of
// ../shared/sites/calibre with the demo KB: the titles and authors of its books align
// to rdfs:label and schema:author / rdfs:label, and books the KB has get sameAs links.
// It runs where the site is up (scripts/calibre.sh sets it up and runs this test).
func TestRunCalibre(t *testing.T) {
	runtest.NeedBrowser(t)
	u := os.Getenv("TRAWL_CALIBRE_URL")
	if u == "" {
		u = "http://127.0.0.1:18082/mobile"
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Skipf("the calibre site is not running at %s (%v): scripts/calibre.sh sets it up and runs this test", u, err)
	}
	resp.Body.Close()
	out := t.TempDir()
	// Two guided rounds: the demo KB holds few of the site's books, so the first round's
	// relations stay under the floor of issue 15 and only gather facts (tentative plan).
	// A delay of 100 ms, as TestRunCalibreBookKB's, for the default 1 s: the run makes
	// 14 probes of up to 2 pages and re-submissions to the one host, and the delay
	// itself is tested in probe (TestDelayHoldsForEveryRequest).
	cmd := trawlCmd("run", u, "--out", out, "--ignore-robots", "--delay", "100ms", "--max-probes", "12", "--pages-per-probe", "2",
		"--rounds", "2", "--guided-values", "3", "--max-submissions", "30", "--json")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	code := exitOf(t, cmd)
	if code != exitOK && code != exitPartial {
		t.Fatalf("trawl run: exit %d\n%s", code, stderr.String())
	}
	var sum pipeline.Summary
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	// calibre answers the empty query with its form page unchanged: the site does not
	// answer an empty query, which is no failure (exit 0). Exit 3 when a probe really
	// failed, and only then.
	if (code == exitPartial) != (sum.Failed > 0) || sum.Failed == sum.Probes {
		t.Errorf("exit %d with %d of %d probes failed (first: %s)", code, sum.Failed, sum.Probes, sum.FirstError)
	}
	if sum.UnansweredProbes > 1 || (sum.UnansweredProbes == 0 && sum.Failed == 0) {
		t.Errorf("%d probes not answered (%s), want the empty query (unless it failed)", sum.UnansweredProbes, sum.Unanswered)
	}
	t.Logf("calibre in %v: %d records, %d links, relations %v, class %s, rounds %+v",
		time.Since(start).Round(time.Second), sum.Records, sum.Links, sum.Relations, sum.Class, sum.Rounds)
	var title, author bool
	for _, r := range sum.Relations {
		title = title || strings.Contains(r, " ⊆ http://www.w3.org/2000/01/rdf-schema#label ")
		author = author || strings.Contains(r, " ⊆ http://schema.org/author / http://www.w3.org/2000/01/rdf-schema#label ")
	}
	if !title || !author {
		t.Errorf("title aligned %v, author aligned %v: %v", title, author, sum.Relations)
	}
	if sum.Links < 10 {
		t.Errorf("%d sameAs links, want books of the demo KB linked", sum.Links)
	}
	if !strings.Contains(sum.Class, "http://schema.org/Book") {
		t.Errorf("record class %q, want schema:Book", sum.Class)
	}
	t.Run("rdf11", func(t *testing.T) {
		// Issue 16: every N-Triples file of a real-site run parses in rapper and rdflib.
		for _, name := range []string{"graph.nt", "links.nt", "enrichment.nt"} {
			path := filepath.Join(sum.Dir, name)
			if st, err := os.Stat(path); err != nil || st.Size() == 0 {
				t.Errorf("%s: missing or empty (%v)", name, err)
				continue
			}
			if n := rdftest.Parse(t, path); n == 0 {
				t.Errorf("rdflib reads no triple from %s", name)
			}
		}
	})
	t.Run("sparql", func(t *testing.T) { sameAlignmentThroughSPARQL(t, sum.Dir) })
}

// sameAlignmentThroughSPARQL aligns a run directory again with the demo KB in the
// Virtuoso of scripts/sites/virtuoso.sh, read as a SPARQL endpoint: alignment.tsv must
// be the one of the embedded demo KB.
func sameAlignmentThroughSPARQL(t *testing.T, dir string) {
	ep := rdftest.Virtuoso(t)
	want, err := os.ReadFile(filepath.Join(dir, "alignment.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := trawlCmd("align", dir, "--kb", ep.SPARQL()+"#graph="+rdftest.DemoGraph, "-q")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("trawl align --kb %s: %v\n%s", ep.SPARQL(), err, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "alignment.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("the alignment through SPARQL differs from the embedded demo KB's (%d vs %d bytes)", len(got), len(want))
	}
}

// checkInterop parses every file with rapper and rdflib, loads them into the Virtuoso
// of scripts/sites/virtuoso.sh and asks for the confidence of an enrichment fact.
// Every IRI trawl minted (records, features, new relations and entities, its
// vocabulary) is under base.
func checkInterop(t *testing.T, files []output.DemoFile, base string) {
	for _, f := range files {
		if n := rdftest.Parse(t, f.File); n != f.Triples {
			t.Errorf("rdflib reads %d triples from %s, trawl wrote %d", n, f.File, f.Triples)
		}
		data, err := os.ReadFile(f.File)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), graph.DefaultBase) || !strings.Contains(string(data), "<"+base+"/src/") {
			t.Errorf("%s: minted IRIs are not all under --base %s", f.File, base)
		}
	}
	ep := rdftest.Virtuoso(t)
	ctx := t.Context()
	g := "urn:trawl:test:demo:" + strconv.FormatInt(time.Now().UnixNano(), 36)
	for _, f := range files {
		if err := ep.Load(ctx, f.File, g); err != nil {
			t.Fatal(err)
		}
	}
	defer ep.Select(context.Background(), "CLEAR GRAPH <"+g+">")
	rows, err := ep.Select(ctx, `PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
SELECT ?s ?p ?o ?c FROM <`+g+`> WHERE {
  ?st rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ; <`+base+`/vocab#confidence> ?c .
  ?s ?p ?o } LIMIT 5`)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("no enrichment fact with a confidence in Virtuoso")
	}
	for _, r := range rows {
		if c, err := strconv.ParseFloat(r["c"], 64); err != nil || c <= 0 || c > 1 {
			t.Errorf("confidence %q of %s %s %s is not in (0, 1]", r["c"], r["s"], r["p"], r["o"])
		}
	}
	t.Logf("Virtuoso: %s %s %s has confidence %s", rows[0]["s"], rows[0]["p"], rows[0]["o"], rows[0]["c"])
}
