package sparql

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
)

// Options configures a KB. Start from DefaultOptions.
type Options struct {
	// Graph is the IRI of the named graph that holds the KB; empty means the endpoint's
	// default graph.
	Graph string
	// Timeout is the time limit of one request.
	Timeout time.Duration
	// Retries is how many times a request is tried again after the endpoint could not
	// be reached or answered 429 or 5xx.
	Retries int
	// Batch is how many nodes one VALUES query asks the facts of.
	Batch int
	// PageSize is the LIMIT of one page of a long answer (endpoints cut answers at a
	// maximum, often 10,000 rows; a page must stay under it).
	PageSize int
	// Cache is a file that keeps the relation statistics (functionalities) between
	// runs; empty means none. It is rewritten when it belongs to another endpoint or
	// graph, and trusted otherwise: delete it when the KB behind the endpoint changes.
	Cache string
	// MaxLiterals is the most literals read to build the literal index; an endpoint
	// with more gets the exact lookup instead (see the package doc).
	MaxLiterals int
	// Client is the HTTP client; nil means http.DefaultClient.
	Client *http.Client
	// Logger receives what the KB asks; nil discards it.
	Logger *slog.Logger
}

// DefaultOptions returns a minute per request, 3 retries, batches of 64 nodes, pages of
// 10,000 rows and a literal index of at most 2 million literals.
func DefaultOptions() Options {
	return Options{Timeout: time.Minute, Retries: 3, Batch: 64, PageSize: 10000, MaxLiterals: 2_000_000}
}

// Stats counts what a KB asked its endpoint.
type Stats struct {
	Queries int64         `json:"queries"`
	Retries int64         `json:"retries"`
	Time    time.Duration `json:"time_ns"` // summed over requests (they may overlap)
}

type relStat struct {
	IRI      string `json:"iri"`
	Facts    int    `json:"facts"`
	Subjects int    `json:"subjects"`
	Objects  int    `json:"objects"`
}

type cacheFile struct {
	Endpoint  string    `json:"endpoint"`
	Graph     string    `json:"graph,omitempty"`
	Relations []relStat `json:"relations"`
}

// KB is a knowledge base read through a SPARQL endpoint. It implements the aligner's
// KB interface (align.KB) and align.BatchFactReader. It is safe for concurrent use.
type KB struct {
	c    *client
	o    Options
	from string // "FROM <graph> " or ""
	log  *slog.Logger

	mu     sync.RWMutex
	ids    map[graph.Term]graph.ID
	terms  map[graph.ID]graph.Term
	known  map[graph.ID]bool
	absent map[graph.Term]bool

	rels   []relStat // sorted by IRI; forward relation of rels[i] is Rel(2i)
	relIDs map[string]graph.Rel
	facts  int64

	litOnce sync.Once
	lit     *graph.Memory // literal index (nil: exact lookup)
	litErr  error
}

const (
	rdfType    = "<" + graph.RDFType + ">"
	subClassOf = "<" + graph.SubClassOf + ">"
)

// Open connects to the endpoint: it reads the relation statistics (from the cache
// when it has them) and fails with an ErrEndpoint error when the endpoint is down,
// refuses the query or holds no relation.
func Open(ctx context.Context, endpoint string, o Options) (*KB, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%w %q: not an http(s) URL", ErrEndpoint, endpoint)
	}
	d := DefaultOptions()
	if o.Timeout <= 0 {
		o.Timeout = d.Timeout
	}
	if o.Retries < 0 {
		o.Retries = 0
	}
	if o.Batch <= 0 {
		o.Batch = d.Batch
	}
	if o.PageSize <= 0 {
		o.PageSize = d.PageSize
	}
	if o.MaxLiterals <= 0 {
		o.MaxLiterals = d.MaxLiterals
	}
	hc := o.Client
	if hc == nil {
		hc = http.DefaultClient
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	kb := &KB{c: &client{endpoint: endpoint, http: hc, timeout: o.Timeout, retries: o.Retries}, o: o, log: log,
		ids: map[graph.Term]graph.ID{}, terms: map[graph.ID]graph.Term{}, known: map[graph.ID]bool{}, absent: map[graph.Term]bool{},
		relIDs: map[string]graph.Rel{}}
	if o.Graph != "" {
		if err := graph.NewIRI(o.Graph).Validate(); err != nil {
			return nil, fmt.Errorf("sparql: graph %q: %v", o.Graph, err)
		}
		kb.from = "FROM <" + o.Graph + "> "
	}
	rels, err := kb.relationStats(ctx)
	if err != nil {
		return nil, err
	}
	if len(rels) == 0 {
		where := "its default graph"
		if o.Graph != "" {
			where = "graph <" + o.Graph + ">"
		}
		return nil, fmt.Errorf("%w %s: %s holds no facts", ErrEndpoint, endpoint, where)
	}
	// rdf:type and rdfs:subClassOf get identifiers too, as in the other KBs (relations
	// numbered in IRI order, taxonomy included), so that every KB numbers the shared
	// relations alike; they have no statistics and are never edges.
	rels = append(slices.Clone(rels), relStat{IRI: graph.RDFType}, relStat{IRI: graph.SubClassOf})
	slices.SortFunc(rels, func(a, b relStat) int { return strings.Compare(a.IRI, b.IRI) })
	kb.rels = rels
	for i, r := range rels {
		if r.IRI == graph.RDFType || r.IRI == graph.SubClassOf {
			continue
		}
		kb.relIDs[r.IRI] = graph.Rel(2 * i)
		kb.facts += int64(r.Facts)
	}
	return kb, nil
}

// relationStats reads the relations with their counts, from the cache or the endpoint.
func (kb *KB) relationStats(ctx context.Context) ([]relStat, error) {
	if kb.o.Cache != "" {
		if b, err := os.ReadFile(kb.o.Cache); err == nil {
			var cf cacheFile
			if json.Unmarshal(b, &cf) == nil && cf.Endpoint == kb.c.endpoint && cf.Graph == kb.o.Graph && len(cf.Relations) > 0 {
				kb.log.Debug("sparql: relation statistics from the cache", "file", kb.o.Cache, "relations", len(cf.Relations))
				return cf.Relations, nil
			}
		}
	}
	q := "SELECT ?p (COUNT(*) AS ?n) (COUNT(DISTINCT ?s) AS ?ns) (COUNT(DISTINCT ?o) AS ?no) " + kb.from +
		"WHERE { ?s ?p ?o FILTER(?p != " + rdfType + " && ?p != " + subClassOf + ") } GROUP BY ?p"
	rows, err := kb.c.selectRows(ctx, q)
	if err != nil {
		return nil, err
	}
	var rels []relStat
	for _, r := range rows {
		p := r["p"]
		n, e1 := strconv.Atoi(r["n"].Value)
		ns, e2 := strconv.Atoi(r["ns"].Value)
		no, e3 := strconv.Atoi(r["no"].Value)
		if !p.IsIRI() || e1 != nil || e2 != nil || e3 != nil || n == 0 {
			return nil, fmt.Errorf("%w %s: unexpected row of the relation counts: %v", ErrEndpoint, kb.c.endpoint, r)
		}
		rels = append(rels, relStat{IRI: p.Value, Facts: n, Subjects: ns, Objects: no})
	}
	slices.SortFunc(rels, func(a, b relStat) int { return strings.Compare(a.IRI, b.IRI) })
	if kb.o.Cache != "" && len(rels) > 0 {
		if err := rundir.WriteJSON(kb.o.Cache, cacheFile{Endpoint: kb.c.endpoint, Graph: kb.o.Graph, Relations: rels}); err != nil {
			kb.log.Warn("sparql: cannot write the cache", "file", kb.o.Cache, "err", err)
		}
	}
	return rels, nil
}

// Stats returns what the KB asked its endpoint so far.
func (kb *KB) Stats() Stats {
	return Stats{Queries: kb.c.queries.Load(), Retries: kb.c.retried.Load(), Time: time.Duration(kb.c.busy.Load())}
}

// Facts returns the number of non-taxonomy facts of the KB.
func (kb *KB) Facts() int64 { return kb.facts }

// Endpoint returns the endpoint URL.
func (kb *KB) Endpoint() string { return kb.c.endpoint }

// intern returns the node of a term the endpoint returned (so the KB has it). Node
// identifiers are the hash identifiers of the other KBs (graph.TermHashID, salt 0; the
// next salts on a collision), so that the aligner, whose ties fall to identifiers,
// gives the same result as with the Badger store.
func (kb *KB) intern(t graph.Term) graph.ID {
	kb.mu.RLock()
	id, ok := kb.ids[t]
	known := ok && kb.known[id]
	kb.mu.RUnlock()
	if known {
		return id
	}
	kb.mu.Lock()
	defer kb.mu.Unlock()
	id, ok = kb.ids[t]
	if !ok {
		var buf []byte
		for salt := uint64(0); ; salt++ {
			id, buf = graph.TermHashID(t, salt, buf)
			if _, taken := kb.terms[id]; !taken {
				break
			}
		}
		kb.terms[id] = t
		kb.ids[t] = id
	}
	kb.known[id] = true
	return id
}

// Term returns the RDF term of a node.
func (kb *KB) Term(_ context.Context, n graph.ID) (graph.Term, error) {
	kb.mu.RLock()
	defer kb.mu.RUnlock()
	t, ok := kb.terms[n]
	if !ok {
		return graph.Term{}, fmt.Errorf("sparql: no node %d", n)
	}
	return t, nil
}

// Lookup returns the node of a term, asking the endpoint whether it has the term the
// first time.
func (kb *KB) Lookup(ctx context.Context, t graph.Term) (graph.ID, bool, error) {
	kb.mu.RLock()
	id, ok := kb.ids[t]
	known := ok && kb.known[id]
	gone := kb.absent[t]
	kb.mu.RUnlock()
	switch {
	case known:
		return id, true, nil
	case gone || t.IsBlank() || t.Kind == graph.KindTriple:
		return 0, false, nil
	}
	s := t.String()
	q := "ASK " + kb.from + "WHERE { { ?s ?p " + s + " }"
	if !t.IsLiteral() {
		q += " UNION { " + s + " ?p ?o }"
	}
	q += " }"
	has, err := kb.c.ask(ctx, q)
	if err != nil {
		return 0, false, err
	}
	if !has {
		kb.mu.Lock()
		kb.absent[t] = true
		kb.mu.Unlock()
		return 0, false, nil
	}
	return kb.intern(t), true, nil
}

// IsLiteral reports whether n is a literal node.
func (kb *KB) IsLiteral(n graph.ID) bool {
	kb.mu.RLock()
	defer kb.mu.RUnlock()
	return kb.terms[n].IsLiteral()
}

// Relations returns the forward relations, in increasing order.
func (kb *KB) Relations() []graph.Rel {
	out := make([]graph.Rel, 0, len(kb.rels))
	for _, r := range kb.relIDs {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// RelationIRI returns the IRI of the forward relation of r.
func (kb *KB) RelationIRI(r graph.Rel) string {
	if i := int(r >> 1); i < len(kb.rels) {
		return kb.rels[i].IRI
	}
	return ""
}

// RelationID returns the forward relation with the given IRI.
func (kb *KB) RelationID(iri string) (graph.Rel, bool) {
	r, ok := kb.relIDs[iri]
	return r, ok
}

// Functionality returns PARIS's harmonic functionality of r (distinct subjects, or
// objects for an inverse relation, over distinct facts).
func (kb *KB) Functionality(r graph.Rel) float64 {
	i := int(r >> 1)
	if i >= len(kb.rels) || kb.rels[i].Facts == 0 {
		return 0
	}
	st := kb.rels[i]
	if r.IsInverse() {
		return float64(st.Objects) / float64(st.Facts)
	}
	return float64(st.Subjects) / float64(st.Facts)
}

// FactCount returns the number of distinct facts of the forward relation of r.
func (kb *KB) FactCount(r graph.Rel) int {
	if i := int(r >> 1); i < len(kb.rels) {
		return kb.rels[i].Facts
	}
	return 0
}

// Edges yields every non-taxonomy fact of n in both directions.
func (kb *KB) Edges(ctx context.Context, n graph.ID) iter.Seq2[graph.Edge, error] {
	return func(yield func(graph.Edge, error) bool) {
		var got []graph.Edge
		err := kb.EdgesBatch(ctx, []graph.ID{n}, func(_ int, edges []graph.Edge) error {
			got = slices.Clone(edges)
			return nil
		})
		if err != nil {
			yield(graph.Edge{}, err)
			return
		}
		for _, e := range got {
			if !yield(e, nil) {
				return
			}
		}
	}
}

// EdgesBatch reads the facts of nodes with one VALUES query per Options.Batch nodes
// (paged when the answer is long) and calls fn for every node.
func (kb *KB) EdgesBatch(ctx context.Context, nodes []graph.ID, fn func(i int, edges []graph.Edge) error) error {
	for lo := 0; lo < len(nodes); lo += kb.o.Batch {
		hi := min(lo+kb.o.Batch, len(nodes))
		if err := kb.edgesBatch(ctx, nodes[lo:hi], lo, fn); err != nil {
			return err
		}
	}
	return nil
}

func (kb *KB) edgesBatch(ctx context.Context, nodes []graph.ID, offset int, fn func(i int, edges []graph.Edge) error) error {
	index := map[graph.Term][]int{}
	var resources, literals strings.Builder
	for i, n := range nodes {
		t, err := kb.Term(ctx, n)
		if err != nil {
			return err
		}
		if t.IsBlank() {
			continue // no stable label to ask with
		}
		if _, dup := index[t]; !dup {
			b := &resources
			if t.IsLiteral() {
				b = &literals // only objects: stores refuse a literal as a subject (Virtuoso SR066)
			}
			b.WriteString(t.String())
			b.WriteByte(' ')
		}
		index[t] = append(index[t], i)
	}
	edges := make([][]graph.Edge, len(nodes))
	var queries []string
	notTaxonomy := "FILTER(?p != " + rdfType + " && ?p != " + subClassOf + ") }"
	if resources.Len() > 0 {
		queries = append(queries, "SELECT ?x ?p ?y ?d "+kb.from+"WHERE { VALUES ?x { "+resources.String()+"} "+
			"{ ?x ?p ?y BIND(0 AS ?d) } UNION { ?y ?p ?x BIND(1 AS ?d) } "+notTaxonomy)
	}
	for _, q := range queries {
		err := kb.pages(ctx, q, "?x ?d ?p ?y", func(r row) error {
			rel, ok := kb.relIDs[r["p"].Value]
			if !ok {
				return nil // taxonomy, or a relation added since the statistics were read
			}
			if r["d"].Value == "1" {
				rel = rel.Inverse()
			}
			e := graph.Edge{Rel: rel, Node: kb.intern(r["y"])}
			for _, i := range index[r["x"]] {
				edges[i] = append(edges[i], e)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if literals.Len() > 0 {
		if err := kb.literalEdges(ctx, literals.String(), index, edges); err != nil {
			return err
		}
	}
	for i := range nodes {
		es := edges[i]
		slices.SortFunc(es, func(a, b graph.Edge) int { return cmp.Or(cmp.Compare(a.Rel, b.Rel), cmp.Compare(a.Node, b.Node)) })
		if err := fn(offset+i, slices.Compact(es)); err != nil {
			return err
		}
	}
	return nil
}

// literalEdges adds the incoming facts of literal nodes. Stores may match a literal by
// value (Virtuoso 7.2 takes "1919"^^xsd:gYear for "1919-01-01"^^xsd:date, and with a
// FILTER comparing terms it answers nothing), so the subjects it names are only
// candidates: their own facts, read with the exact stored terms, decide.
func (kb *KB) literalEdges(ctx context.Context, values string, index map[graph.Term][]int, edges [][]graph.Edge) error {
	subjects := map[graph.Term]bool{}
	var list strings.Builder
	err := kb.pages(ctx, "SELECT DISTINCT ?y "+kb.from+"WHERE { VALUES ?x { "+values+"} ?y ?p ?x }", "?y", func(r row) error {
		if y := r["y"]; !y.IsBlank() && !subjects[y] {
			subjects[y] = true
			list.WriteString(y.String())
			list.WriteByte(' ')
		}
		return nil
	})
	if err != nil || len(subjects) == 0 {
		return err
	}
	return kb.pages(ctx, "SELECT ?y ?p ?o "+kb.from+"WHERE { VALUES ?y { "+list.String()+"} ?y ?p ?o }", "?y ?p ?o", func(r row) error {
		is, ok := index[r["o"]]
		if !ok {
			return nil
		}
		rel, ok := kb.relIDs[r["p"].Value]
		if !ok {
			return nil
		}
		e := graph.Edge{Rel: rel.Inverse(), Node: kb.intern(r["y"])}
		for _, i := range is {
			edges[i] = append(edges[i], e)
		}
		return nil
	})
}

// pages runs a SELECT query and calls fn for every row. A short answer comes in one
// request without ORDER BY (Virtuoso 7.2 drops the language tag of a VALUES literal
// from an ordered answer); an answer of PageSize rows or more is read again page by
// page, ORDER BY order, LIMIT PageSize.
func (kb *KB) pages(ctx context.Context, q, order string, fn func(row) error) error {
	rows, err := kb.c.selectRows(ctx, q+" LIMIT "+strconv.Itoa(kb.o.PageSize))
	if err != nil {
		return err
	}
	if len(rows) < kb.o.PageSize {
		for _, r := range rows {
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	}
	for off := 0; ; off += kb.o.PageSize {
		rows, err := kb.c.selectRows(ctx, q+" ORDER BY "+order+" LIMIT "+strconv.Itoa(kb.o.PageSize)+" OFFSET "+strconv.Itoa(off))
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := fn(r); err != nil {
				return err
			}
		}
		if len(rows) < kb.o.PageSize {
			return nil
		}
	}
}

// nodes runs a one-variable query page by page and returns the nodes in increasing
// order.
func (kb *KB) nodes(ctx context.Context, q, v string) ([]graph.ID, error) {
	var out []graph.ID
	err := kb.pages(ctx, q, "?"+v, func(r row) error {
		if t := r[v]; !t.IsZero() && !t.IsBlank() {
			out = append(out, kb.intern(t))
		}
		return nil
	})
	slices.Sort(out)
	return slices.Compact(out), err
}

func seq(ids []graph.ID, err error) iter.Seq2[graph.ID, error] {
	return func(yield func(graph.ID, error) bool) {
		if err != nil {
			yield(0, err)
			return
		}
		for _, id := range ids {
			if !yield(id, nil) {
				return
			}
		}
	}
}

// Entities yields every node that is the subject of a non-taxonomy fact.
func (kb *KB) Entities(ctx context.Context) iter.Seq2[graph.ID, error] {
	return seq(kb.nodes(ctx, "SELECT DISTINCT ?s "+kb.from+"WHERE { ?s ?p ?o FILTER(?p != "+rdfType+" && ?p != "+subClassOf+") }", "s"))
}

// iriOf returns the SPARQL form of a node that can be asked about, or false.
func (kb *KB) iriOf(ctx context.Context, n graph.ID) (string, bool, error) {
	t, err := kb.Term(ctx, n)
	if err != nil {
		return "", false, err
	}
	return t.String(), t.IsIRI(), nil
}

// Types returns the classes of n.
func (kb *KB) Types(ctx context.Context, n graph.ID) ([]graph.ID, error) {
	s, ok, err := kb.iriOf(ctx, n)
	if !ok {
		return nil, err
	}
	return kb.nodes(ctx, "SELECT DISTINCT ?c "+kb.from+"WHERE { "+s+" "+rdfType+" ?c }", "c")
}

// Instances yields the instances of class c in increasing order.
func (kb *KB) Instances(ctx context.Context, c graph.ID) iter.Seq2[graph.ID, error] {
	s, ok, err := kb.iriOf(ctx, c)
	if !ok {
		return seq(nil, err)
	}
	return seq(kb.nodes(ctx, "SELECT DISTINCT ?s "+kb.from+"WHERE { ?s "+rdfType+" "+s+" }", "s"))
}

// SuperClasses returns the direct superclasses of c.
func (kb *KB) SuperClasses(ctx context.Context, c graph.ID) ([]graph.ID, error) {
	s, ok, err := kb.iriOf(ctx, c)
	if !ok {
		return nil, err
	}
	return kb.nodes(ctx, "SELECT DISTINCT ?c "+kb.from+"WHERE { "+s+" "+subClassOf+" ?c }", "c")
}
