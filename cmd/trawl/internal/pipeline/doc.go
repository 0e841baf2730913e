// Package pipeline runs trawl's stages on the run directory of one form (design.md):
// probe → extract (FOREST) → schema → graph → align (PARIS, understanding and
// enrichment) → ontology-guided rounds → report.
//
// Each stage has one implementation, which 'trawl run', 'trawl batch', 'trawl demo' and
// the one-stage commands ('trawl extract RUN_DIR', 'trawl align RUN_DIR', …) all call.
// Within one process a stage hands its results on to the next in memory (the form, the
// probe log, the records, the schema, the labeled graph, the alignment); it still
// writes its files through internal/rundir, with a marker holding the digest of its
// inputs and options, so that a killed run resumes where it stopped and any stage can
// be re-run alone.
package pipeline
