package pipeline

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
)

// The KB walks of the guided rounds start from the alignment the align stage computed
// (*align.Result), never from its files.

// classSampler is what the Badger store offers for sampling instances quickly.
type classSampler interface {
	SampleClass(ctx context.Context, c graph.ID, n int) ([]graph.ID, error)
}

// subClasser reads the direct subclasses of a class (the Badger store); classLister
// lists every class (the in-memory graph), from which they are found through
// SuperClasses.
type (
	subClasser interface {
		SubClasses(ctx context.Context, c graph.ID) ([]graph.ID, error)
	}
	classLister interface{ Classes() []graph.ID }
)

// classClosure returns c and its subclasses, transitively (rdfs:subClassOf), sorted: a
// KB's books are typed schema:Book, and an instance of Book is an instance of
// CreativeWork.
func classClosure(ctx context.Context, kb align.KB, c graph.ID) ([]graph.ID, error) {
	sub := func(x graph.ID) ([]graph.ID, error) { return nil, nil }
	switch k := kb.(type) {
	case subClasser:
		sub = func(x graph.ID) ([]graph.ID, error) { return k.SubClasses(ctx, x) }
	case classLister:
		children := map[graph.ID][]graph.ID{}
		for _, y := range k.Classes() {
			sups, err := kb.SuperClasses(ctx, y)
			if err != nil {
				return nil, err
			}
			for _, s := range sups {
				children[s] = append(children[s], y)
			}
		}
		sub = func(x graph.ID) ([]graph.ID, error) { return children[x], nil }
	}
	return reach([]graph.ID{c}, sub)
}

// reach returns the nodes of start and those reached from them by next, transitively,
// sorted.
func reach(start []graph.ID, next func(graph.ID) ([]graph.ID, error)) ([]graph.ID, error) {
	seen := map[graph.ID]bool{}
	var out []graph.ID
	for _, x := range start {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	for i := 0; i < len(out); i++ {
		xs, err := next(out[i])
		if err != nil {
			return nil, err
		}
		for _, x := range xs {
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// classOfPartners returns the most specific KB class that carries at least half of the
// confidence of the instance pairs at or above minConf (their types and, through
// rdfs:subClassOf, the types' superclasses), or "". Confidences count as alignment.tsv
// writes them (six decimals).
func classOfPartners(ctx context.Context, kb align.KB, res *align.Result, minConf float64) (string, error) {
	weight := map[graph.ID]float64{}
	total := 0.0
	for _, m := range res.Instances {
		conf, _ := strconv.ParseFloat(strconv.FormatFloat(m.Confidence, 'f', 6, 64), 64)
		if conf < minConf || !m.RightTerm.IsIRI() {
			continue
		}
		types, err := kb.Types(ctx, m.Right)
		if err != nil {
			return "", err
		}
		closed, err := superClosure(ctx, kb, types)
		if err != nil {
			return "", err
		}
		total += conf
		for _, c := range closed {
			weight[c] += conf
		}
	}
	best, bestDepth := graph.ID(0), -1
	for c, w := range weight {
		if total == 0 || w < total/2 {
			continue
		}
		sup, err := superClosure(ctx, kb, []graph.ID{c})
		if err != nil {
			return "", err
		}
		if len(sup) > bestDepth || (len(sup) == bestDepth && c < best) {
			best, bestDepth = c, len(sup)
		}
	}
	if bestDepth < 0 {
		return "", nil
	}
	t, err := kb.Term(ctx, best)
	if err != nil {
		return "", err
	}
	return t.Value, nil
}

// superClosure returns the classes and their superclasses, transitively, sorted.
func superClosure(ctx context.Context, kb align.KB, classes []graph.ID) ([]graph.ID, error) {
	return reach(classes, func(c graph.ID) ([]graph.ID, error) { return kb.SuperClasses(ctx, c) })
}

// linkedEntities returns the KB entities the records are linked to (the owl:sameAs
// links of links.nt at threshold), in the order of links.nt.
func linkedEntities(res *align.Result, threshold float64) []graph.ID {
	type link struct {
		line string
		id   graph.ID
	}
	var links []link
	sameAs := graph.NewIRI(graph.OWLSameAs)
	o := res.Options
	o.LinkThreshold = threshold
	for _, m := range res.Instances {
		if m.Linked(o) {
			links = append(links, link{graph.Triple{S: m.LeftTerm, P: sameAs, O: m.RightTerm}.String(), m.Right})
		}
	}
	slices.SortFunc(links, func(a, b link) int { return strings.Compare(a.line, b.line) })
	links = slices.CompactFunc(links, func(a, b link) bool { return a.line == b.line })
	out := make([]graph.ID, len(links))
	for i, l := range links {
		out[i] = l.id
	}
	return out
}

// Bounds of the neighbourhood walk that ranks instances by their closeness to the
// linked entities.
const (
	maxLinkedWalk   = 200 // linked entities walked from
	maxHubDegree    = 500 // a middle node with more edges (a country, a language) is skipped
	maxEdgesPerNode = 64
)

// neighbourScores counts, for each entity two steps away from a linked entity through a
// non-literal middle node (a book of the same author, a book of the same publisher),
// how many such paths lead to it. Instances related to what the source has shown are
// more likely to be in the source too (thesis ch. 3 §3.6: the KB guides the probing).
func neighbourScores(ctx context.Context, kb align.KB, linked []graph.ID) (map[graph.ID]int, error) {
	score := map[graph.ID]int{}
	isLinked := map[graph.ID]bool{}
	for _, e := range linked {
		isLinked[e] = true
	}
	edgesOf := func(n graph.ID, limit int) ([]graph.Edge, error) {
		var es []graph.Edge
		for e, err := range kb.Edges(ctx, n) {
			if err != nil {
				return nil, err
			}
			es = append(es, e)
			if len(es) > limit {
				break
			}
		}
		return es, nil
	}
	for i, e := range linked {
		if i == maxLinkedWalk {
			break
		}
		first, err := edgesOf(e, maxEdgesPerNode)
		if err != nil {
			return nil, err
		}
		for _, m := range first {
			if kb.IsLiteral(m.Node) {
				continue
			}
			second, err := edgesOf(m.Node, maxHubDegree)
			if err != nil {
				return nil, err
			}
			if len(second) > maxHubDegree {
				continue
			}
			for _, x := range second {
				if x.Node != e && !isLinked[x.Node] && !kb.IsLiteral(x.Node) {
					score[x.Node]++
				}
			}
		}
	}
	return score, nil
}

// kbValues returns the literal values reached along path from up to n instances of
// the KB class (instances of its subclasses included): first the instances closest to
// the linked entities (neighbourScores), then instances spread over the class and its
// subclasses, in a deterministic order.
func kbValues(ctx context.Context, kb align.KB, class string, path align.Path, n int, linked []graph.ID) ([]string, error) {
	c, ok, err := kb.Lookup(ctx, graph.NewIRI(class))
	if err != nil || !ok {
		return nil, err
	}
	classes, err := classClosure(ctx, kb, c)
	if err != nil {
		return nil, err
	}
	inst, err := nearInstances(ctx, kb, classes, n, linked)
	if err != nil {
		return nil, err
	}
	// The spread instances come from every class of the closure in turn, n in all.
	var spread []graph.ID
	per := max(1, n/len(classes))
	for _, cl := range classes {
		xs, err := spreadInstances(ctx, kb, cl, per)
		if err != nil {
			return nil, err
		}
		spread = append(spread, xs...)
	}
	isLinked := map[graph.ID]bool{}
	for _, x := range linked {
		isLinked[x] = true
	}
	have := map[graph.ID]bool{}
	for _, x := range inst {
		have[x] = true
	}
	for _, x := range spread {
		if !have[x] && !isLinked[x] {
			have[x] = true
			inst = append(inst, x)
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, x := range inst {
		vals, err := pathValues(ctx, kb, x, path)
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out, nil
}

// nearInstances returns up to n instances of the classes (sorted), those closest to the
// linked entities first (neighbourScores), ties by identifier.
func nearInstances(ctx context.Context, kb align.KB, classes []graph.ID, n int, linked []graph.ID) ([]graph.ID, error) {
	if len(linked) == 0 {
		return nil, nil
	}
	scores, err := neighbourScores(ctx, kb, linked)
	if err != nil {
		return nil, err
	}
	var near []graph.ID
	for x := range scores {
		near = append(near, x)
	}
	sort.Slice(near, func(i, j int) bool {
		if scores[near[i]] != scores[near[j]] {
			return scores[near[i]] > scores[near[j]]
		}
		return near[i] < near[j]
	})
	var inst []graph.ID
	for _, x := range near {
		if len(inst) == n {
			break
		}
		types, err := kb.Types(ctx, x)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(types, func(t graph.ID) bool { _, in := slices.BinarySearch(classes, t); return in }) {
			inst = append(inst, x)
		}
	}
	return inst, nil
}

// spreadInstances returns up to n instances spread over class c: the store's sample
// when it has one, else every len/n-th instance.
func spreadInstances(ctx context.Context, kb align.KB, c graph.ID, n int) ([]graph.ID, error) {
	if cs, ok := kb.(classSampler); ok {
		return cs.SampleClass(ctx, c, n)
	}
	var all []graph.ID
	for id, err := range kb.Instances(ctx, c) {
		if err != nil {
			return nil, err
		}
		all = append(all, id)
	}
	var spread []graph.ID
	step := max(1, len(all)/max(n, 1))
	for i := 0; i < len(all) && len(spread) < n; i += step {
		spread = append(spread, all[i])
	}
	return spread, nil
}

// pathValues returns the texts of the literals reached from x along path.
func pathValues(ctx context.Context, kb align.KB, x graph.ID, path align.Path) ([]string, error) {
	nodes := []graph.ID{x}
	for _, rel := range path.Steps() {
		var next []graph.ID
		for _, nd := range nodes {
			for e, err := range kb.Edges(ctx, nd) {
				if err != nil {
					return nil, err
				}
				if e.Rel == rel {
					next = append(next, e.Node)
				}
			}
		}
		nodes = next
	}
	var out []string
	for _, nd := range nodes {
		if !kb.IsLiteral(nd) {
			continue
		}
		t, err := kb.Term(ctx, nd)
		if err != nil {
			return nil, err
		}
		if v := strings.TrimSpace(t.Value); v != "" {
			out = append(out, v)
		}
	}
	return out, nil
}
