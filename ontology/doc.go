// Package ontology is the reference knowledge base on Badger: the store and its
// loaders. It reads N-Triples, YAGO 4.5-style Turtle and YAGO3 TSV (plain or gzipped)
// with the RDF syntax layer of package graph, and keeps a term dictionary, fact indexes
// in both directions and per relation, the taxonomy (rdf:type, rdfs:subClassOf),
// per-relation functionalities computed at load, the literal index of package graph's
// literal matching (graph.MatchLiterals: exact after normalisation, dates by inclusion,
// approximate by MinHash), and value sampling for ontology-guided probing. A small
// demo KB in YAGO 4.5 vocabulary is embedded in the binary (package demokb, OpenDemo).
//
// It is the only package that imports Badger.
//
// # Loading
//
// Load (into a directory) and LoadMemory (into an in-memory Badger) read Sources
// (FileSource, BytesSource) in parallel with the parsers of package graph (N-Triples
// through graph.AppendLineKeys, which yields term keys without building terms; Turtle
// through graph.ReadTurtle), name every term by its 64-bit hash identifier
// (graph.TermHashID; the top bit marks literals), sort the facts externally by subject
// and by object (radix-sorted runs, k-way merge; the pairs of each relation come out
// of the subject order), and write packed per-node records with Badger's StreamWriter.
//
// Memory is bounded by LoadOptions.SortMemoryMB (1 GiB by default): the budget bounds
// the peak of the process's anonymous memory (Go heap, stacks and the loader's
// buffers outside the heap; not the table files Badger writes through memory maps,
// which are page cache). 32 MiB and 8 MiB per parsing worker are set aside for the Go
// runtime (Badger's memtable, the parsers' chunks and batches: 48 MiB with two
// workers); the rest is shared out among the sort
// buffers, the in-memory runs, the relation pairs, the parsers' term sets and the read
// buffers of the final merge, all but the pairs outside the Go heap. Whatever does not
// fit goes to sorted runs in DIR/.load-tmp; a load that fits writes no run. The final
// merge reads the run files through buffers of one share of the budget, however many
// runs there are. While Load runs, the Go runtime's soft memory limit
// (runtime/debug.SetMemoryLimit) is kept at what the buffers outside the heap leave of
// the budget, so that Badger's table builders and write batches (tables of 1/512 of
// the budget, 128 KiB to 2 MiB) and the collector's garbage fit in the rest; a lower
// limit set by the program stays, and the previous limit comes back when the load
// ends. Small budgets cost CPU time (the collector runs more often: +30 % at 128 MiB),
// and below about 128 MiB the fixed part no longer fits (docs/benchmarks.md).
// LoadMemory keeps the KB itself on the Go heap; its budget covers the sort buffers
// alone.
//
// A malformed line is reported with file:line(:col) and skipped, up to
// LoadOptions.MaxErrors. A directory is marked complete only when its load finished;
// Open refuses unfinished loads (ErrIncomplete), foreign directories (ErrNotKB) and
// other key layouts (LayoutError). See docs/decisions/2026-11-22-ontology-*.md and
// 2026-11-27-kb-load-budget.md and 2026-11-27-kb-load-merge-memory.md.
//
// # Reading
//
// *Store satisfies the aligner's KB interface (align.KB): Term, Lookup, IsLiteral,
// Edges (both directions, inverse relations odd, taxonomy excluded), Entities,
// Relations, RelationIRI, RelationID, Functionality, FactCount, Candidates, Types,
// Instances, SuperClasses. It adds SubClasses, Pairs, Triples, Sample,
// SampleRelation, SampleClass, FindEntities, Label and Stats.
//
// # References
//
// Functionalities follow PARIS: F. M. Suchanek, S. Abiteboul, P. Senellart, "PARIS:
// Probabilistic Alignment of Relations, Instances, and Schema", PVLDB 5(3), 2011, §4
// (harmonic functionality: distinct subjects / distinct facts; the inverse uses
// distinct objects). Literal matching follows the same paper's reference code as
// described in the project's notes (normal forms, shingling with Dice re-scoring,
// no approximate lookup when an exact match exists) and M. Oita's thesis, ch. 3
// (stripping bracketed text and stop words); the LSH banding is the one of A.
// Rajaraman and J. Ullman, "Mining of Massive Datasets", §3.4. Date inclusion with
// '#' wildcards follows YAGO's javatools DateParser. IRI resolution is RFC 3986 §5.2.
package ontology
