// Package records isolates the response records of result pages with FOREST: it groups
// pages by layout (result, empty, error), ranks candidate structural patterns by how
// densely and unexpectedly they hold the signifiers (the query terms, or tf-idf terms when
// those are weak), segments the records of the best pattern and writes them as absolute
// XPaths with their ordered leaves. The same code, in article mode, finds the single main
// block of a page (FOREST as the thesis evaluated it).
//
// It works on HTML it is given and never starts a browser. It writes wrapper.json and
// records.jsonl of a run directory.
//
// # API
//
//	w, recs, err := records.Extract(ctx, []records.Page{
//		{Name: "pages/0001-1.html", URL: u, HTML: dom, Terms: []string{"dickens"}, Kind: "term"},
//		{Name: "pages/0002-1.html", HTML: dom2, Terms: []string{"xqzvkw"}, Kind: records.KindNonsense},
//	}, records.DefaultOptions())
//
// Extract takes the pages of one source (any number, of one or several layouts) with the
// terms each was queried with and the probe kind ("nonsense" marks the nonsense-word
// probe). It returns the Wrapper (page classes, error patterns, per layout template the
// generic record XPath and the FOREST ranking of the candidates; written as wrapper.json)
// and the Records (written as records.jsonl with WriteRecords). Options selects the mode
// (ModeRecords, ModeArticle), the regions kept (RegionsBest: the result list;
// RegionsAll: every data region), the signifier source, the thesis's parameters and
// the list model (ListModel; nil is the embedded one, which CollectListExamples and
// TrainListModel reproduce from pages with known records).
//
// A learnt wrapper applies to any further page of its templates without learning again:
//
//	w, err := records.ReadWrapper(runDir) // or the Wrapper Extract returned
//	a, err := records.NewApplier(w, records.DefaultApplyOptions())
//	recs, class, err := a.Apply(ctx, records.Page{Name: "resubmission-1", URL: u, HTML: dom, Terms: []string{"bleak house"}})
//
// Apply classifies the page as Extract would have — error page (the nonsense word's
// echo with the page's own terms), result page (a template's rules find records; one
// record is enough), empty, or unmatched (laid out like no page of the run) — and
// returns its records with the leaf paths of the run's records.jsonl. The wrapper keeps
// for that, per template, the selected patterns as Rules (tag, type path of the
// records' parent, common attributes, sibling runs, parallel rows), the layouts of the
// page clusters and the exact location of the error echo (ErrorPattern.TypePath).
//
// # Method
//
//  1. Page model: the HTML5 parser of golang.org/x/net/html, scripts, styles and form
//     option lists left out, elements numbered in pre-order (the thesis's dfs attribute,
//     body = 1), text as one token sequence (textnorm.Tokens) so that the counts x, y of
//     any element are two subtractions.
//  2. Page classes: Webstemmer-style layout clusters (block sequences, runs and repeated
//     cycles merged, LCS-weighted similarity); the nonsense-word page's echo of its word
//     gives the error pattern — the location and the phrase ("no results for {q}"); pages
//     carrying it, or laid out like it without records, are error pages; result pages
//     hold records, empty pages none.
//  3. Signifiers: a page's query terms when they are not stop words or single letters and
//     occur in at least two leaves outside query echoes; otherwise the top-k tf-idf terms
//     of the page over the pages given (raw count × ln(n/df), the text of navigation,
//     landmark regions and repeated widgets left out; over the page's leaves for a
//     single page).
//  4. FOREST: J (eq. 2.2), U (eq. 2.3, natural log), I = J × U (eq. 2.4), R = Σ I × p ×
//     level (eq. 2.5). In article mode a pattern is (element type of Def. 2 with tolerant
//     attributes or dfs, level) over the elements of significant terminal paths, I sums
//     J×U over its elements, and the best-ranked pattern is the main block. In record
//     mode a pattern is a set of similar sibling elements typed without dfs (tag, common
//     tolerant attributes, type path of the parent), and I is J×U of its records taken
//     together.
//  5. Selection (record mode): a learnt list model (ListModel, a logistic regression
//     trained on the NEXT-EVAL pages by go generate, model_lists.json.gz) scores every
//     candidate pattern from documented features (listfeatures.go): FOREST's relevance
//     and signifier coverage, repetition and regularity, text and link density, depth
//     and position, landmark regions, tags, the list among the page's other lists
//     and what it links to, the list filters' reasons (anchor lists, form options,
//     header cells, labels, repeated widgets, lists holding navigation lists, fixed
//     field tuples, groups of lists) and values relative to the page's other
//     patterns. Lists of page chrome (navigation, banner, footer, dialogs) are never
//     records. Under RegionsAll the most probable pattern
//     (at half the model's threshold) and every other one at the threshold are kept,
//     best first, unless they overlap a better one; under RegionsBest the most probable
//     pattern that holds a signifier and is no anchor list. On a page, disclosure
//     toggles, pagers and rows of header cells are no records; when the records'
//     element type also fits other blocks of the sample pages, a match must carry the
//     records' own class tokens. A page whose own layout cluster has no wrapper, or
//     whose wrapper finds nothing on it (a result page with a single record, laid out
//     like the no-result page), is given the wrapper of each other template in turn;
//     the first that finds records makes it a result page.
//  6. Segmentation: each record's absolute, index-qualified XPath (plus the sibling
//     elements it spans, in Record.Extra: a dd after its dt, a heading before its block,
//     the row of the same index in a parallel table) and its leaves — text, link href,
//     image src and alt — with their record-internal paths in tolerant form
//     ("li.result/h3/a").
//
// The rules in force and their measured effect are recorded in
// docs/decisions/2026-11-27-forest-list-model.md; the earlier choices in
// docs/decisions/2026-11-22-forest-*.md.
//
// References: M. Oita, "Deriving semantic objects from the structured web", PhD thesis,
// Télécom ParisTech 2012, ch. 2 §6 (FOREST) and ch. 3 §3.2–3.3 (record identification,
// record-internal paths); Y. Shinyama, "Webstemmer – How it works?" (layout clustering);
// Kim, Kim, Jeong, "NEXT-EVAL", arXiv 2505.17125 (the record-level evaluation measure the
// tests use).
package records
