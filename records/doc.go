// Package records isolates the response records of result pages with FOREST: it groups
// pages by layout (result, empty, error), ranks candidate structural patterns by how
// densely and unexpectedly they hold the signifiers (the query terms, or tf-idf terms when
// those are weak), segments the records of the best pattern and writes them as absolute
// XPaths with their ordered leaves. The same code, in article mode, finds the single main
// block of a page (FOREST/SIGFEED).
//
// It works on HTML it is given and never starts a browser. It writes wrapper.json and
// records.jsonl of a run directory.
//
// Method: M. Oita, "Deriving semantic objects from the structured web", PhD thesis,
// Télécom ParisTech 2012, ch. 2 §6 (FOREST) and ch. 3 §3.2.
package records
