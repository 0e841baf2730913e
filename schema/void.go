package schema

import (
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"time"

	"github.com/trawl-dev/trawl/graph"
)

// The VoID/PROV description of a source, written into the same graph:
//
//	<src> a void:Dataset, prov:Entity; dcterms:title; dcterms:source <form page>;
//	      void:uriSpace; void:triples; void:entities; void:classes; void:properties;
//	      void:classPartition; void:propertyPartition (one per feature, with its triples);
//	      prov:wasGeneratedBy <src/run>; dcterms:created (the first probe's start).
//	<src/run> a prov:Activity; prov:used <src/form>; prov:wasAssociatedWith trawl;
//	      prov:startedAtTime; prov:endedAtTime.
//	<src/form> a trawl:Form; dcterms:source <page>; trawl:action <action>; trawl:method;
//	      trawl:field <src/field/NAME> (a trawl:Field with its name, type, label, and
//	      trawl:mapsTo the predicate of each feature it maps to).
//	<src/probe/N> a prov:Activity; dcterms:isPartOf <src/run>; prov:used <src/form>;
//	      trawl:probeKind; trawl:assignment "field=value&…"; prov:startedAtTime;
//	      prov:endedAtTime; prov:generated <result page>; trawl:records.
//
// All times come from the probe log, never from the clock, so that re-running on the
// same pages gives the same bytes. (W3C VoID Note 2011; PROV-O Recommendation 2013.)

func integer(n int) graph.Term { return graph.NewTyped(strconv.Itoa(n), graph.XSDInteger) }

func dateTime(t time.Time) graph.Term {
	return graph.NewTyped(t.UTC().Format(time.RFC3339Nano), graph.XSDDT)
}

// iriOf returns a URL as an IRI term, or false (logged) when it cannot be one.
func iriOf(u string, log *slog.Logger, what string) (graph.Term, bool) {
	if u == "" {
		return graph.Term{}, false
	}
	iri, err := graph.EscapeIRI(u)
	if err != nil {
		log.Warn("URL not usable as an IRI", "what", what, "url", u, "err", err)
		return graph.Term{}, false
	}
	return graph.NewIRI(iri), true
}

func (l *Labeled) describeSource(s *Schema, preds []graph.Term, add func(*[]graph.Triple, graph.Triple), log *slog.Logger) {
	w := &voidWriter{l: l, s: s, preds: preds, log: log, ns: l.NS,
		typ: graph.NewIRI(graph.RDFType), label: graph.NewIRI(graph.RDFSLabel)}
	w.t = func(s, p, o graph.Term) { add(&l.Provenance, graph.Triple{S: s, P: p, O: o}) }
	w.page, w.hasPage = iriOf(s.Source.PageURL, log, "form page")
	w.dataset()
	w.run()
	w.form()
	w.probes()
}

// voidWriter writes the VoID/PROV description of a source.
type voidWriter struct {
	l       *Labeled
	s       *Schema
	preds   []graph.Term
	log     *slog.Logger
	ns      graph.Namespace
	t       func(s, p, o graph.Term)
	typ     graph.Term
	label   graph.Term
	page    graph.Term
	hasPage bool
}

func (w *voidWriter) v(local string) graph.Term  { return graph.NewIRI(graph.VoID + local) }
func (w *voidWriter) p(local string) graph.Term  { return graph.NewIRI(graph.PROV + local) }
func (w *voidWriter) dc(local string) graph.Term { return graph.NewIRI(graph.DCTerms + local) }

// dataset describes the dataset: its title, source, URI space, counts and partitions
// (over the data triples, records and schema, written so far).
func (w *voidWriter) dataset() {
	l, ns, t, v := w.l, w.ns, w.t, w.v
	d := ns.Dataset()
	perPred := map[graph.Term]int{}
	for _, tr := range l.Records {
		perPred[tr.P]++
	}
	t(d, w.typ, v("Dataset"))
	t(d, w.typ, w.p("Entity"))
	src := w.s.Source
	where := src.PageURL
	if where == "" {
		where = src.Action
	}
	if where != "" {
		t(d, w.dc("title"), graph.NewLiteral("trawl labeled graph of the records behind "+where))
	}
	if w.hasPage {
		t(d, w.dc("source"), w.page)
	}
	t(d, v("uriSpace"), graph.NewLiteral(ns.RecordPrefix()))
	t(d, v("vocabulary"), graph.NewIRI(ns.PredicatePrefix()))
	t(d, v("triples"), integer(len(l.Records)+len(l.Schema)))
	t(d, v("entities"), integer(l.Entities))
	t(d, v("classes"), integer(1))
	t(d, v("properties"), integer(len(w.s.Features)))
	cp := ns.Partition("class", "Record")
	t(d, v("classPartition"), cp)
	t(cp, v("class"), ns.Class())
	t(cp, v("entities"), integer(l.Entities))
	for i := range w.s.Features {
		pp := ns.Partition("property", w.s.Features[i].Name)
		t(d, v("propertyPartition"), pp)
		t(pp, v("property"), w.preds[i])
		t(pp, v("triples"), integer(perPred[w.preds[i]]))
	}
}

// run describes the run: the activity that generated the dataset with the form, by
// trawl, from the first probe's start to the last probe's end.
func (w *voidWriter) run() {
	ns, t, p := w.ns, w.t, w.p
	d, run, form := ns.Dataset(), ns.Run(), ns.Form()
	agent := graph.NewIRI(SoftwareIRI)
	t(d, p("wasGeneratedBy"), run)
	t(run, w.typ, p("Activity"))
	t(run, p("used"), form)
	t(run, p("wasAssociatedWith"), agent)
	t(agent, w.typ, p("SoftwareAgent"))
	t(agent, w.label, graph.NewLiteral("trawl"))
	var first, last time.Time
	for _, pr := range w.s.Source.Probes {
		if pr.Started.IsZero() {
			continue
		}
		end := pr.Started.Add(pr.Duration)
		if first.IsZero() || pr.Started.Before(first) {
			first = pr.Started
		}
		if end.After(last) {
			last = end
		}
	}
	if !first.IsZero() {
		t(d, w.dc("created"), dateTime(first))
		t(run, p("startedAtTime"), dateTime(first))
		t(run, p("endedAtTime"), dateTime(last))
	}
}

// form describes the form: its page, action and method, its fields, and the features
// each field maps to.
func (w *voidWriter) form() {
	ns, t, src := w.ns, w.t, w.s.Source
	form := ns.Form()
	t(form, w.typ, ns.Vocab("Form"))
	if w.hasPage {
		t(form, w.dc("source"), w.page)
	}
	if a, ok := iriOf(src.Action, w.log, "form action"); ok {
		t(form, ns.Vocab("action"), a)
	}
	if src.Method != "" {
		t(form, ns.Vocab("method"), graph.NewLiteral(src.Method))
	}
	predOf := map[string]graph.Term{}
	for i := range w.s.Features {
		predOf[w.s.Features[i].Name] = w.preds[i]
	}
	for _, fd := range src.Fields {
		f := ns.Field(fd.Name)
		t(form, ns.Vocab("field"), f)
		t(f, w.typ, ns.Vocab("Field"))
		t(f, ns.Vocab("fieldName"), graph.NewLiteral(fd.Name))
		if fd.Type != "" {
			t(f, ns.Vocab("fieldType"), graph.NewLiteral(fd.Type))
		}
		if fd.Label != "" {
			t(f, w.label, graph.NewLiteral(fd.Label))
		}
	}
	for _, m := range w.s.Mapping {
		if pr, ok := predOf[m.Feature]; ok {
			t(ns.Field(m.Field), ns.Vocab("mapsTo"), pr)
		}
	}
}

// probes describes each probe: an activity of the run, with its kind, assignment, times,
// result pages and number of records.
func (w *voidWriter) probes() {
	ns, t, p := w.ns, w.t, w.p
	run, form := ns.Run(), ns.Form()
	for _, pr := range w.s.Source.Probes {
		a := ns.Probe(pr.N)
		t(a, w.typ, p("Activity"))
		t(a, w.dc("isPartOf"), run)
		t(a, p("used"), form)
		if pr.Kind != "" {
			t(a, ns.Vocab("probeKind"), graph.NewLiteral(pr.Kind))
		}
		q := url.Values{}
		for k, val := range pr.Assignment {
			q.Set(k, val)
		}
		enc := q.Encode()
		t(a, ns.Vocab("assignment"), graph.NewLiteral(enc))
		t(a, w.label, graph.NewLiteral(fmt.Sprintf("probe %d (%s): %s", pr.N, pr.Kind, enc)))
		if !pr.Started.IsZero() {
			t(a, p("startedAtTime"), dateTime(pr.Started))
			t(a, p("endedAtTime"), dateTime(pr.Started.Add(pr.Duration)))
		}
		for _, u := range pr.Pages {
			if pg, ok := iriOf(u, w.log, "result page"); ok {
				t(a, p("generated"), pg)
			}
		}
		t(a, ns.Vocab("records"), integer(pr.Records))
	}
}
