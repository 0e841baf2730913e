package realsites

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/trawl-dev/trawl/internal/textnorm"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
)

// schemaWant is what the output schema of a site must hold (issue 15): the attributes
// the application stores for each record, read from its own data, and how the page
// shows them; the labels the page prints; the attributes the keyword box searches.
type schemaWant struct {
	// attrs returns, for the result page at pageURL, the attributes of each record the
	// application lists there, by record key (s.key), as the application stores them.
	attrs func(t *testing.T, pageURL string) map[string]map[string]string
	// shown says how the page shows each attribute of attrs: "equal", "prefix" (cut
	// short, with an ellipsis), "date" (a date in any format, compared as YYYY-MM-DD).
	shown map[string]string
	// labels are labels the page prints, which the features must carry.
	labels []string
	// mapped are the attributes the keyword box maps to; snippet is true when the
	// page shows a snippet of the matched text, which it must map to too.
	mapped  []string
	snippet bool
}

// minAttrAgreement is the least share of the sampled records whose feature values
// agree with the application's value for an attribute to count as found.
const minAttrAgreement = 0.9

// checkSchema checks the schema, the labels, the mapping and the record identity of a
// run against the application's own data on sampled result pages.
func (s site) checkSchema(t *testing.T, r result, probes []probe.Probe) {
	sch, err := schema.Load(filepath.Join(r.dir, "schema.json"))
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, tail(r.stderr, 20))
	}
	recs := readRecords(t, r.dir)
	byPage := map[string][]records.Record{}
	for _, rc := range recs {
		byPage[rc.Page] = append(byPage[rc.Page], rc)
	}
	for _, f := range sch.Features {
		t.Logf("feature %-24s %-4s %-10s label %-16q (%s) records %d samples %q", f.Name, f.Kind, f.Type, f.Label, f.LabelSource, f.Records, f.Samples[:min(2, len(f.Samples))])
	}
	for _, m := range sch.Mapping {
		t.Logf("mapping %s -> %s (%s, %s, %.3f over %d)", m.Field, m.Feature, m.Method, m.Relation, m.Score, m.Evidence)
	}

	// Features: each attribute is a feature whose values agree with the application's.
	agree := map[string]map[string]int{} // attribute → feature → records agreeing
	total := map[string]int{}
	for _, ref := range sampledPages(probes) {
		attrs := s.schema.attrs(t, ref.URL)
		if attrs == nil {
			continue
		}
		for _, rc := range byPage[ref.File] {
			want := attrs[s.key(asRecord(rc))]
			if want == nil {
				continue
			}
			vals := sch.Values(rc)
			for a, v := range want {
				if strings.TrimSpace(v) == "" {
					continue
				}
				total[a]++
				for fi := range sch.Features {
					f := &sch.Features[fi]
					if f.Kind == schema.KindText && shownAs(f, vals[fi], v, s.schema.shown[a]) {
						if agree[a] == nil {
							agree[a] = map[string]int{}
						}
						agree[a][f.Name]++
					}
				}
			}
		}
	}
	featureOf := map[string]string{}
	for a, how := range s.schema.shown {
		best, n := "", 0
		for f, k := range agree[a] {
			if k > n || k == n && f < best {
				best, n = f, k
			}
		}
		if total[a] == 0 {
			t.Errorf("attribute %s: no sampled record to check it on", a)
			continue
		}
		share := float64(n) / float64(total[a])
		t.Logf("attribute %-8s (%s): feature %q agrees on %d of %d sampled records (%.3f)", a, how, best, n, total[a], share)
		if share < minAttrAgreement {
			t.Errorf("attribute %s: best feature %q agrees with %s's data on %.3f of the records, want ≥ %.2f", a, best, s.name, share, minAttrAgreement)
			continue
		}
		featureOf[a] = best
	}

	// Labels: clean, none the keyword box's, the page's own where it prints them.
	f, err := probe.ReadForm(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	boxLabel := ""
	for _, fd := range f.Fields {
		if fd.Name == s.form.keyword {
			boxLabel = fd.Label
		}
	}
	labels := map[string]bool{}
	for _, ft := range sch.Features {
		labels[textnorm.Fold(ft.Label)] = true
		switch {
		case ft.Label == "":
			t.Errorf("feature %s has no label", ft.Name)
		case schema.CleanLabel(ft.Label) != ft.Label:
			t.Errorf("feature %s: label %q is not clean (%q)", ft.Name, ft.Label, schema.CleanLabel(ft.Label))
		case boxLabel != "" && textnorm.Fold(ft.Label) == textnorm.Fold(schema.CleanLabel(boxLabel)):
			t.Errorf("feature %s is labelled %q after the keyword box", ft.Name, ft.Label)
		}
		if ft.Kind == schema.KindText {
			for _, v := range ft.Samples {
				if strings.IndexFunc(v, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
					t.Errorf("feature %s holds a value without a letter or digit: %q", ft.Name, v)
				}
			}
		}
	}
	for _, l := range s.schema.labels {
		if !labels[textnorm.Fold(l)] {
			t.Errorf("no feature carries the label %q the page prints", l)
		}
	}

	// Mapping: the keyword box maps to what it searches, no other field maps.
	mapped := map[string]bool{}
	for _, m := range sch.Mapping {
		if m.Field != s.form.keyword {
			t.Errorf("field %s maps to %s (%s): only the keyword box %s filters the records", m.Field, m.Feature, m.Method, s.form.keyword)
			continue
		}
		mapped[m.Feature] = true
	}
	for _, a := range s.schema.mapped {
		if ft := featureOf[a]; ft == "" || !mapped[ft] {
			t.Errorf("the keyword box %s does not map to %s (feature %q)", s.form.keyword, a, ft)
		}
	}
	if s.schema.snippet {
		found := false
		for _, ft := range sch.Features {
			if ft.Label == "Snippet" && mapped[ft.Name] {
				found = true
			}
		}
		if !found {
			t.Errorf("the keyword box %s does not map to the snippet", s.form.keyword)
		}
	}

	// Identity: one entity per record the application has.
	keys := map[string]bool{}
	for _, rc := range recs {
		k := s.key(asRecord(rc))
		if k == "" {
			k = "text:" + sch.IdentityText(rc)
		}
		keys[k] = true
	}
	entities := countEntities(t, r.dir)
	t.Logf("identity: %d records, %d distinct records by the application's keys, %d entities in graph.nt", len(recs), len(keys), entities)
	if entities != len(keys) {
		t.Errorf("graph.nt has %d entities for %d distinct records (%d records)", entities, len(keys), len(recs))
	}
}

// shownAs reports whether a feature's values show the application's value v.
func shownAs(f *schema.Feature, vals []string, v, how string) bool {
	got := strings.Join(vals, " ")
	switch how {
	case "prefix":
		g := normal(strings.TrimRight(strings.TrimSpace(got), ".… "))
		return g != "" && strings.HasPrefix(normal(v), g)
	case "date":
		for _, x := range vals {
			if lex, ok := f.Typed(x); ok && strings.HasPrefix(lex, v) {
				return true
			}
		}
		return false
	}
	return got != "" && normal(got) == normal(v)
}

func normal(s string) string { return strings.Join(textnorm.Tokens(s), " ") }

// asRecord is the part of a record the site's key function reads.
func asRecord(rc records.Record) record {
	var r record
	r.Page = rc.Page
	for _, l := range rc.Leaves {
		r.Leaves = append(r.Leaves, struct {
			Path string `json:"path"`
			Text string `json:"text"`
			Href string `json:"href"`
		}{l.Path, l.Text, l.Href})
	}
	return r
}

func readRecords(t *testing.T, dir string) []records.Record {
	t.Helper()
	fh, err := os.Open(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []records.Record
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var rc records.Record
		if err := json.Unmarshal(sc.Bytes(), &rc); err != nil {
			t.Fatalf("records.jsonl: %v", err)
		}
		out = append(out, rc)
	}
	return out
}

var entityRE = regexp.MustCompile(`^<([^>]*/rec/[0-9a-f]+)> <http://www\.w3\.org/1999/02/22-rdf-syntax-ns#type> `)

// countEntities counts the record entities of graph.nt.
func countEntities(t *testing.T, dir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "graph.nt"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, l := range bytes.Split(b, []byte("\n")) {
		if m := entityRE.FindSubmatch(l); m != nil {
			seen[string(m[1])] = true
		}
	}
	return len(seen)
}

// sampledPages returns up to maxSampled result pages of successful probes, spread
// over the run.
func sampledPages(probes []probe.Probe) []probe.PageRef {
	var pages []probe.PageRef
	for _, p := range probes {
		if p.Error == "" && p.Kind != probe.KindNonsense {
			pages = append(pages, p.Pages...)
		}
	}
	if len(pages) <= maxSampled {
		return pages
	}
	step := float64(len(pages)) / maxSampled
	var sampled []probe.PageRef
	for i := range maxSampled {
		sampled = append(sampled, pages[int(float64(i)*step)])
	}
	return sampled
}

// tsvAttrs turns lines "KEY<TAB>v1<TAB>v2…" into attributes named by names.
func tsvAttrs(ls []string, sep string, names ...string) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, l := range ls {
		parts := strings.SplitN(l, sep, len(names)+1)
		m := map[string]string{}
		for i, n := range names {
			if i+1 < len(parts) {
				m[n] = parts[i+1]
			}
		}
		out[parts[0]] = m
	}
	return out
}
