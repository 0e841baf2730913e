package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

// httpSubmitter submits a server-rendered test site's form over plain HTTP: hidden and
// default values of the form, then the values given. The pages come back without the
// answer-key markers (Marked keeps the last page with them).
type httpSubmitter struct {
	t      *testing.T
	calls  int
	marked string
}

func (h *httpSubmitter) Submit(ctx context.Context, f probe.Form, values map[string]string) ([]probe.Page, error) {
	h.calls++
	v := url.Values{}
	for _, fd := range f.Fields {
		if fd.Name != "" && (fd.Type == "hidden" || fd.Value != "") && fd.Type != "submit" {
			v.Set(fd.Name, fd.Value)
		}
	}
	for k, x := range values {
		v.Set(k, x)
	}
	u := f.Action + "?" + v.Encode()
	if f.Method != "GET" {
		return nil, fmt.Errorf("httpSubmitter: %s form", f.Method)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	h.marked = string(b)
	return []probe.Page{{URL: u, Status: resp.StatusCode, HTML: testsites.StripMarkers(string(b)), Navigated: true}}, nil
}

// siteRunDir writes the run directory of a server-rendered test site the way 'trawl
// probe' and 'trawl extract' do: form.json, probes.jsonl and pages (content terms, a
// stop word, a letter and the nonsense word through the keyword field; markers
// stripped), wrapper.json and records.jsonl.
func siteRunDir(t *testing.T, s *testsites.Site, base, dir string) (probe.Form, []records.Record) {
	t.Helper()
	resp, err := http.Get(base + s.FormPath)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := probe.ReadHTML(resp.Body, resp.Header.Get("Content-Type"))
	_ = resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	forms, err := probe.ParseForms(doc, base+s.FormPath)
	if err != nil {
		t.Fatal(err)
	}
	var kw string
	for _, f := range s.Fields {
		if f.Keyword {
			kw = f.Name
		}
	}
	i := slices.IndexFunc(forms, func(f probe.Form) bool {
		return slices.ContainsFunc(f.Fields, func(fd probe.Field) bool { return fd.Name == kw })
	})
	if i < 0 {
		t.Fatalf("%s: no form with the keyword field %q", s.Name, kw)
	}
	form := forms[i]
	form.KeywordFields = []string{kw}
	if err := os.MkdirAll(filepath.Join(dir, rundir.PagesDir), 0o755); err != nil {
		t.Fatal(err)
	}
	fb, _ := json.Marshal(form)
	if err := os.WriteFile(filepath.Join(dir, rundir.FormFile), fb, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := &httpSubmitter{t: t}
	var log bytes.Buffer
	plan := []struct{ q, kind string }{{"love", "term"}, {"house", "term"}, {"night", "term"}, {"life", "term"},
		{"the", "stopword"}, {"e", "letter"}, {"qzxwvkjptr", "nonsense"}}
	for n, pr := range plan {
		pages, err := sub.Submit(t.Context(), form, map[string]string{kw: pr.q})
		if err != nil {
			t.Fatal(err)
		}
		file := fmt.Sprintf("%s/%04d-1.html", rundir.PagesDir, n+1)
		if err := os.WriteFile(filepath.Join(dir, file), []byte(pages[0].HTML), 0o644); err != nil {
			t.Fatal(err)
		}
		p := probe.Probe{N: n + 1, Kind: pr.kind, Assignment: map[string]string{kw: pr.q}, Terms: []string{pr.q}, URL: pages[0].URL,
			Status: 200, Navigated: true, Pages: []probe.PageRef{{File: file, URL: pages[0].URL, Status: 200, Bytes: len(pages[0].HTML)}}}
		line, _ := json.Marshal(p)
		log.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, rundir.ProbesFile), log.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ex, err := stagePipeline(dir).Extract(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return form, ex.Records
}

// stagePipeline is the pipeline of a run directory for its offline stages.
func stagePipeline(dir string) *Pipeline {
	o := DefaultOptions()
	o.Dir = dir
	o.Probe.Screenshots = false
	return New(o, nil)
}

// testResubmitter is the resubmitter of the run directory dir, submitting with sub.
func testResubmitter(dir string, sub pageSubmitter) (*resubmitter, error) {
	p := stagePipeline(dir)
	form, err := p.st.Form()
	if err != nil {
		return nil, err
	}
	return newResubmitter(p, sub, form)
}

// TestResubmitter re-submits the forms of the demo and catalogue sites with an exact
// title (a result page with one record), with a query of two records and with another
// nonsense word (a no-result page that echoes it). The records must be the page's
// true records with the leaf paths of records.jsonl — through the run's wrapper, and
// through FOREST over the run when wrapper.json is missing or stale.
func TestResubmitter(t *testing.T) {
	for _, site := range []struct{ name, two string }{{"demo", "twilight"}, {"catalogue", "pride"}} {
		name := site.name
		t.Run(name, func(t *testing.T) {
			s := testsites.Demo()
			if name != "demo" {
				var err error
				if s, err = testsites.ByName(name); err != nil {
					t.Fatal(err)
				}
			}
			srv := s.NewServer()
			defer srv.Close()
			dir := t.TempDir()
			form, runRecs := siteRunDir(t, s, srv.URL, dir)
			paths := map[string]bool{}
			for _, r := range runRecs {
				for _, l := range r.Leaves {
					paths[l.Path] = true
				}
			}
			field := form.KeywordFields[0]
			if name == "demo" {
				field = "title" // the advanced form's title field
			}
			title := s.Records[3].Values["title"]
			trials := []struct {
				name   string
				values map[string]string
				want   int
				text   string // a leaf of every record holds it
			}{
				{"one exact title", map[string]string{field: title}, 1, title},
				{"two records", map[string]string{form.KeywordFields[0]: site.two}, 2, ""},
				{"echoing no-result page", map[string]string{form.KeywordFields[0]: "vbqxkzwjtlm"}, 0, ""},
			}
			run := func(t *testing.T, sub *httpSubmitter, rs *resubmitter) {
				t.Helper()
				for _, tr := range trials {
					recs, err := rs.Submit(t.Context(), tr.values)
					if err != nil {
						t.Fatalf("%s: %v", tr.name, err)
					}
					if truth := strings.Count(sub.marked, testsites.RecordAttr+"="); truth != tr.want {
						t.Fatalf("%s: the site gives %d records, the trial wants %d", tr.name, truth, tr.want)
					}
					if len(recs) != tr.want {
						t.Errorf("%s %v: %d records, want %d", tr.name, tr.values, len(recs), tr.want)
					}
					for _, r := range recs {
						found := tr.text == ""
						for _, l := range r.Leaves {
							if !paths[l.Path] {
								t.Errorf("%s: leaf path %q is not in records.jsonl", tr.name, l.Path)
							}
							found = found || l.Text == tr.text
						}
						if !found {
							t.Errorf("%s: no leaf of %s holds %q: %+v", tr.name, r.XPath, tr.text, r.Leaves)
						}
					}
				}
			}
			t.Run("wrapper", func(t *testing.T) {
				sub := &httpSubmitter{t: t}
				rs, err := testResubmitter(dir, sub)
				if err != nil {
					t.Fatal(err)
				}
				if rs.apply == nil || rs.pages != nil {
					t.Fatal("the resubmitter does not apply the run's wrapper")
				}
				run(t, sub, rs)
			})
			t.Run("stale wrapper", func(t *testing.T) {
				stale := filepath.Join(t.TempDir(), "run")
				copyDir(t, dir, stale)
				if err := os.WriteFile(filepath.Join(stale, records.WrapperFile), []byte(`{"mode": "records", "xpath": "//li"}`), 0o644); err != nil {
					t.Fatal(err)
				}
				sub := &httpSubmitter{t: t}
				rs, err := testResubmitter(stale, sub)
				if err != nil {
					t.Fatal(err)
				}
				if rs.apply != nil || len(rs.pages) == 0 {
					t.Fatal("a stale wrapper must fall back to FOREST over the run")
				}
				run(t, sub, rs)
			})
			t.Run("no wrapper", func(t *testing.T) {
				bare := filepath.Join(t.TempDir(), "run")
				copyDir(t, dir, bare)
				if err := os.Remove(filepath.Join(bare, records.WrapperFile)); err != nil {
					t.Fatal(err)
				}
				sub := &httpSubmitter{t: t}
				rs, err := testResubmitter(bare, sub)
				if err != nil {
					t.Fatal(err)
				}
				run(t, sub, rs)
			})
			t.Run("corrupt wrapper", func(t *testing.T) {
				bad := filepath.Join(t.TempDir(), "run")
				copyDir(t, dir, bad)
				if err := os.WriteFile(filepath.Join(bad, records.WrapperFile), []byte("{\"version\": 2,\n\"mode\": }"), 0o644); err != nil {
					t.Fatal(err)
				}
				_, err := testResubmitter(bad, &httpSubmitter{t: t})
				if !errors.Is(err, records.ErrBadWrapper) || !strings.Contains(err.Error(), "wrapper.json:2:9") {
					t.Errorf("corrupt wrapper.json: %v, want ErrBadWrapper at wrapper.json:2:9", err)
				}
			})
		})
	}
}

// copyDir copies the files of a run directory (one level of subdirectories).
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
