// Package rdftest checks trawl's RDF outputs with the tools knowledge engineers load
// them with: rapper (Raptor 2), rdflib (Debian's python3-rdflib) and a real triple store,
// OpenLink Virtuoso, started by scripts/sites/virtuoso.sh. It is for tests only.
//
// Where a tool is missing the check is skipped with a message, unless
// TRAWL_REQUIRE_INTEROP=1 (CI sets it after running scripts/sites/virtuoso.sh): then it
// fails.
package rdftest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Required reports whether the interoperability tools must be there
// (TRAWL_REQUIRE_INTEROP=1).
func Required() bool { return os.Getenv("TRAWL_REQUIRE_INTEROP") == "1" }

// missing skips t, or fails it when the tools are required.
func missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...) + " (scripts/sites/virtuoso.sh installs and starts it)"
	if Required() {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// Python is Debian's interpreter, which has python3-rdflib (a python3 found first on
// PATH, such as a pyenv one, may not).
const Python = "/usr/bin/python3"

// syntax returns the rapper and rdflib names of a file's syntax, by its extension.
func syntax(path string) (rapper, rdflib string) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".nq":
		return "nquads", "nquads"
	case ".ttl":
		return "turtle", "turtle"
	case ".rdf", ".owl", ".xml":
		return "rdfxml", "xml"
	}
	return "ntriples", "nt"
}

// Parse checks that rapper and rdflib both parse the file and returns the number of
// triples (or quads) rdflib read.
func Parse(t testing.TB, path string) int {
	t.Helper()
	if _, err := exec.LookPath("rapper"); err != nil {
		missing(t, "rapper is not installed")
	}
	if err := exec.Command(Python, "-c", "import rdflib").Run(); err != nil {
		missing(t, "%s cannot import rdflib: %v", Python, err)
	}
	rs, ls := syntax(path)
	out, err := exec.Command("rapper", "-q", "-i", rs, "-c", path, "http://trawl.invalid/base/").CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("rapper rejects %s: %v\n%s", path, err, out)
	}
	const script = `import sys, rdflib
g = rdflib.Dataset() if sys.argv[2] == "nquads" else rdflib.Graph()
g.parse(sys.argv[1], format=sys.argv[2])
print(len(g) if sys.argv[2] != "nquads" else sum(len(x) for x in g.graphs()))`
	out, err = exec.Command(Python, "-c", script, path, ls).CombinedOutput()
	if err != nil {
		t.Errorf("rdflib rejects %s: %v\n%s", path, err, out)
		return 0
	}
	var n int
	if _, err := fmt.Sscan(string(out), &n); err != nil {
		t.Errorf("rdflib's count of %s: %v (%q)", path, err, out)
	}
	return n
}

// Endpoint is a Virtuoso started by scripts/sites/virtuoso.sh.
type Endpoint struct {
	Base string // http://127.0.0.1:PORT
}

// SPARQL returns the URL of the SPARQL endpoint.
func (e Endpoint) SPARQL() string { return e.Base + "/sparql" }

// DemoGraph is the named graph in which scripts/sites/virtuoso.sh loads the demo KB.
const DemoGraph = "urn:trawl:demo-kb"

// Virtuoso returns the Virtuoso of scripts/sites/virtuoso.sh ($TRAWL_VIRTUOSO_PORT,
// 18150), or skips t (fails it under TRAWL_REQUIRE_INTEROP=1) when it does not answer.
func Virtuoso(t testing.TB) Endpoint {
	t.Helper()
	port := os.Getenv("TRAWL_VIRTUOSO_PORT")
	if port == "" {
		port = "18150"
	}
	e := Endpoint{Base: "http://127.0.0.1:" + port}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := e.Select(ctx, "ASK {}"); err != nil {
		missing(t, "Virtuoso does not answer at %s: %v", e.SPARQL(), err)
	}
	return e
}

// Load loads a file into the named graph g (replacing it) with the SPARQL 1.1 Graph
// Store protocol, through Virtuoso's own parser of the file's syntax.
func (e Endpoint) Load(ctx context.Context, path, g string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	ct := map[string]string{"ntriples": "text/plain", "turtle": "text/turtle", "rdfxml": "application/rdf+xml", "nquads": "application/n-quads"}
	rs, _ := syntax(path)
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, e.Base+"/sparql-graph-crud?graph-uri="+url.QueryEscape(g), bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", ct[rs])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	var body bytes.Buffer
	if _, err := body.ReadFrom(resp.Body); err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("virtuoso refuses %s: %s: %s", path, resp.Status, strings.TrimSpace(body.String()))
	}
	return nil
}

// Select runs a query and returns its solutions as variable → value strings (or, for
// ASK, one row {"boolean": "true"|"false"}).
func (e Endpoint) Select(ctx context.Context, query string) ([]map[string]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.SPARQL(), strings.NewReader(url.Values{"query": {query}}.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/sparql-results+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	var body bytes.Buffer
	if _, err := body.ReadFrom(resp.Body); err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", resp.Status, strings.TrimSpace(body.String()))
	}
	var res struct {
		Boolean *bool `json:"boolean"`
		Results struct {
			Bindings []map[string]struct{ Value string } `json:"bindings"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body.Bytes(), &res); err != nil {
		return nil, err
	}
	if res.Boolean != nil {
		return []map[string]string{{"boolean": fmt.Sprint(*res.Boolean)}}, nil
	}
	var out []map[string]string
	for _, b := range res.Results.Bindings {
		r := map[string]string{}
		for k, v := range b {
			r[k] = v.Value
		}
		out = append(out, r)
	}
	return out, nil
}
