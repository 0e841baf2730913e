// Package schema aligns the attributes of extracted records into an output schema
// (record features: a record-internal location and its bag of values), gives the features
// labels and value types, and maps the form's inputs to output features, partly by
// re-submitting extracted values through a small Submitter interface (which the prober
// satisfies through the pipeline; schema does not drive a browser).
//
// Build does the offline part: leaves grouped by record-internal path (positional
// features for paths repeated a fixed number of times, lists otherwise), composite leaves
// split on recurring template words, bracket groups and dates, template text, query
// echoes and ranks dropped, features found under slightly different paths merged, types
// (integer, decimal, price, date, year, URL, ISBN, identifier), labels from table
// headers, "Label:" prefixes and mapped form fields, selects mapped by their options
// and option probes, text fields by the logged probes; with a Submitter it adds the
// re-submission trials. Run builds it and writes schema.json into a run directory.
//
// BuildLabeled turns the records under the schema into the labeled graph of the source
// (one entity per record, one literal per attribute value, thesis ch. 3 §3.5) with its
// VoID/PROV description. schema takes the form and the probe log as plain data
// (internal/rundir), never from package probe.
//
// Method: M. Oita, "Deriving semantic objects from the structured web", PhD thesis,
// Télécom ParisTech 2012, ch. 3 §3.3 (attribute alignment, record features, removal of
// uninformative features) and §3.4 (input–output mapping by re-submission). Composite
// leaves follow the template-token idea of RoadRunner (Crescenzi, Mecca, Merialdo, VLDB
// 2001) and ExAlg (Arasu, Garcia-Molina, SIGMOD 2003); header and in-text labels the
// annotators of Lu et al., "Annotating Search Results from Web Databases", TKDE 2013.
// Choices the thesis leaves open are recorded in docs/decisions/2026-11-22-*.md.
package schema
