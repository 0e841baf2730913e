package schema

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/internal/textnorm"
	"github.com/trawl-dev/trawl/records"
)

// Record identity. The same record comes back from many probes: a wiki page found by
// "the", by "package" and by a harvested word is one page. Its text is no reliable
// identity: snippets, highlights and hit counts follow the query. The URL of the
// record's own link (its detail page) is, once the parts of it that follow the probe
// are left out: a highlight parameter (DokuWiki's s[]=word), an echo of the query, a
// session. So the schema learns which link names the records and which of its query
// parameters are volatile, and the labeled graph keys its entities on that URL; records
// without it fall back to their text without the volatile and per-query parts.

// Identity is how the records of a source are told apart across probes.
type Identity struct {
	// Links are the locations of the link whose URL names a record (one link, found
	// under slightly different paths); the first a record has is read.
	Links []Location `json:"links"`
	// VolatileParams are the query parameters of that URL that follow the probe rather
	// than the record; they are left out of the URL that names it.
	VolatileParams []string `json:"volatile_params,omitempty"`
	// Records is the number of records with the link; Entities the number of distinct
	// records they are.
	Records  int `json:"records"`
	Entities int `json:"entities"`
}

// Least share of the records that must have the identifying link, and least share of
// them whose URL is unique on its page (two results of one page are two records).
const (
	minIdentityCoverage = 0.9
	minIdentityUnique   = 0.9
)

// queryParams splits a raw query on '&' and ';' (gitweb separates with ';') into
// name and value pairs, in order; values stay encoded.
func queryParams(raw string) [][2]string {
	var out [][2]string
	for _, part := range strings.FieldsFunc(raw, func(r rune) bool { return r == '&' || r == ';' }) {
		k, v, _ := strings.Cut(part, "=")
		if k != "" {
			out = append(out, [2]string{k, v})
		}
	}
	return out
}

// canonicalURL returns u without its fragment and without the volatile query
// parameters, the others sorted by name: the name of a record. It returns u trimmed
// when u does not parse.
func canonicalURL(u string, volatile []string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil {
		return strings.TrimSpace(u)
	}
	p.Fragment, p.RawFragment = "", ""
	params := queryParams(p.RawQuery)
	params = slices.DeleteFunc(params, func(kv [2]string) bool { return slices.Contains(volatile, kv[0]) })
	slices.SortStableFunc(params, func(a, b [2]string) int { return cmp.Compare(a[0], b[0]) })
	parts := make([]string, len(params))
	for i, kv := range params {
		parts[i] = kv[0] + "=" + kv[1]
	}
	p.RawQuery = strings.Join(parts, "&")
	p.ForceQuery = false
	return p.String()
}

// urlKey is the record key of a canonical URL: 16 hex digits of SHA-256.
func urlKey(u string) string {
	sum := sha256.Sum256([]byte("url\x00" + u))
	return hex.EncodeToString(sum[:8])
}

// learnIdentity chooses the identifying link among the kept link candidates: the
// first (in record order) found in most records whose canonical URL is unique on its
// page. A query parameter is volatile when its value holds the probe's query terms, or
// is the same for every record of a page yet changes from page to page.
func learnIdentity(cands []*cand, rs []rec) *Identity {
	sorted := slices.Clone(cands)
	slices.SortStableFunc(sorted, func(a, b *cand) int { return cmp.Compare(a.pos, b.pos) })
	for _, c := range sorted {
		if c.dropped != "" || c.multi || c.locs[0].Attr != "href" {
			continue
		}
		if id := identityOf(c, rs); id != nil {
			return id
		}
	}
	return nil
}

func identityOf(c *cand, rs []rec) *Identity {
	n := 0
	for ri := range rs {
		if len(c.vals[ri]) > 0 {
			n++
		}
	}
	if n < 2 || float64(n) < minIdentityCoverage*float64(len(rs)) {
		return nil
	}
	volatile := volatileParams(c, rs)
	perPage := map[string]map[string]int{}
	keys := map[string]bool{}
	for ri := range rs {
		if len(c.vals[ri]) == 0 {
			continue
		}
		u := canonicalURL(c.vals[ri][0], volatile)
		if perPage[rs[ri].page] == nil {
			perPage[rs[ri].page] = map[string]int{}
		}
		perPage[rs[ri].page][u]++
		keys[u] = true
	}
	unique := 0
	for _, urls := range perPage {
		for _, k := range urls {
			if k == 1 {
				unique++
			}
		}
	}
	if float64(unique) < minIdentityUnique*float64(n) {
		return nil
	}
	return &Identity{Links: c.locs, VolatileParams: volatile, Records: n, Entities: len(keys)}
}

// volatileParams returns the query parameters of a link candidate's URLs that follow
// the probe: their value holds the query terms in at least half of the records of
// probes with terms, or is constant within every page of two records or more while
// taking several values across pages.
func volatileParams(c *cand, rs []rec) []string {
	type stat struct {
		echo, withTerms int
		perPage         map[string]map[string]bool
		values          map[string]bool
	}
	stats := map[string]*stat{}
	var names []string
	pageRecs := map[string]int{}
	for ri := range rs {
		if len(c.vals[ri]) == 0 {
			continue
		}
		pageRecs[rs[ri].page]++
		p, err := url.Parse(c.vals[ri][0])
		if err != nil {
			continue
		}
		for _, kv := range queryParams(p.RawQuery) {
			st := stats[kv[0]]
			if st == nil {
				st = &stat{perPage: map[string]map[string]bool{}, values: map[string]bool{}}
				stats[kv[0]] = st
				names = append(names, kv[0])
			}
			v, err := url.QueryUnescape(kv[1])
			if err != nil {
				v = kv[1]
			}
			st.values[v] = true
			if st.perPage[rs[ri].page] == nil {
				st.perPage[rs[ri].page] = map[string]bool{}
			}
			st.perPage[rs[ri].page][v] = true
			if len(rs[ri].terms) > 0 {
				st.withTerms++
				if echoes(v, rs[ri].terms) || holdsTerms(v, rs[ri].terms) {
					st.echo++
				}
			}
		}
	}
	var out []string
	for _, name := range names {
		st := stats[name]
		if st.withTerms > 0 && float64(st.echo) >= 0.5*float64(st.withTerms) {
			out = append(out, name)
			continue
		}
		pages, constant := 0, true
		for p, vals := range st.perPage {
			if pageRecs[p] < 2 {
				continue
			}
			pages++
			if len(vals) > 1 {
				constant = false
				break
			}
		}
		if constant && pages >= 2 && len(st.values) >= 2 {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// holdsTerms reports whether every query term is a word of v.
func holdsTerms(v string, terms map[string]bool) bool {
	words := map[string]bool{}
	for _, w := range textnorm.Tokens(v) {
		words[w] = true
	}
	for t := range terms {
		if !words[t] {
			return false
		}
	}
	return len(terms) > 0
}

// RecordKey returns the key of a record within its source, from which the labeled
// graph mints the record's IRI: the canonical URL of its identifying link when the
// schema has one and the record holds it, else the normal form of its identity text
// (IdentityText). Records with the same key are one entity. It returns "" for a record
// with neither.
func (s *Schema) RecordKey(r records.Record) string {
	if u := s.identityURL(r); u != "" {
		return urlKey(u)
	}
	return textKey(s.IdentityText(r))
}

// RecordKeys returns RecordKey of every record, with one more way to find a record's
// identifying URL: a record that lacks the identifying link where the schema expects it
// (its page nests the link differently) but holds a link, anywhere, whose canonical URL
// names another record of the source, is that record. Without it the one record found
// under two layouts would be two entities.
func (s *Schema) RecordKeys(recs []records.Record) []string {
	keys := make([]string, len(recs))
	if s.Identity == nil {
		for i, r := range recs {
			keys[i] = textKey(s.IdentityText(r))
		}
		return keys
	}
	named := map[string]bool{}
	missing := []int{}
	for i, r := range recs {
		if u := s.identityURL(r); u != "" {
			named[u] = true
			keys[i] = urlKey(u)
			continue
		}
		missing = append(missing, i)
	}
	for _, i := range missing {
		for _, lf := range recs[i].Leaves {
			if lf.Href == "" {
				continue
			}
			if u := canonicalURL(lf.Href, s.Identity.VolatileParams); named[u] {
				keys[i] = urlKey(u)
				break
			}
		}
		if keys[i] == "" {
			keys[i] = textKey(s.IdentityText(recs[i]))
		}
	}
	return keys
}

// identityURL returns the canonical URL of the record's identifying link, or "".
func (s *Schema) identityURL(r records.Record) string {
	if s.Identity == nil {
		return ""
	}
	rs, _ := prepare([]records.Record{joinRecord(r, s.Joins)}, nil)
	if u := s.Identity.link(&rs[0]); u != "" {
		return canonicalURL(u, s.Identity.VolatileParams)
	}
	return ""
}

// link returns the URL of the record's identifying link, as the page has it, or "".
func (id *Identity) link(r *rec) string {
	for _, l := range id.Links {
		if vals := l.read(r, nil); len(vals) > 0 {
			return vals[0]
		}
	}
	return ""
}

// textKey is the record key of an identity text: 16 hex digits of SHA-256 over its
// normal form (folded words joined by one space), "" without letters or digits.
func textKey(text string) string {
	n := strings.Join(textnorm.Tokens(text), " ")
	if n == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(n))
	return hex.EncodeToString(sum[:8])
}

// Least evidence that a feature follows the query: records found by two probes or more
// (by their identifying link), and the share of them whose values differ.
const (
	minPerQueryRecords = 3
	minPerQueryShare   = 0.5
)

// markPerQuery marks the kept text candidates whose values for one record change with
// the probe that found it (a snippet, a hit count, a relevance score): attributes of
// the result rather than of the record. Record identity ignores them.
func markPerQuery(cands []*cand, rs []rec, id *Identity) {
	if id == nil {
		return
	}
	groups := map[string][]int{}
	var order []string
	for ri := range rs {
		u := id.link(&rs[ri])
		if u == "" || rs[ri].probe == 0 {
			continue
		}
		k := canonicalURL(u, id.VolatileParams)
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], ri)
	}
	for _, c := range cands {
		if c.dropped != "" || c.locs[0].Attr != "" {
			continue
		}
		seen, differ := 0, 0
		for _, k := range order {
			byProbe := map[int]string{}
			for _, ri := range groups[k] {
				if len(c.vals[ri]) == 0 {
					continue
				}
				parts := make([]string, len(c.vals[ri]))
				for i, v := range c.vals[ri] {
					parts[i] = norm(v)
				}
				slices.Sort(parts)
				byProbe[rs[ri].probe] = strings.Join(parts, "\x00")
			}
			if len(byProbe) < 2 {
				continue
			}
			seen++
			distinct := map[string]bool{}
			for _, v := range byProbe {
				distinct[v] = true
			}
			if len(distinct) > 1 {
				differ++
			}
		}
		c.perQuery = seen >= minPerQueryRecords && float64(differ) >= minPerQueryShare*float64(seen)
	}
}
