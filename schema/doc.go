// Package schema aligns the attributes of extracted records into an output schema
// (record features: a record-internal path and its bag of values), gives the features
// labels and value types, and maps the form's inputs to output features by re-submitting
// extracted values through a small Submitter interface (which package probe satisfies;
// schema does not import probe).
//
// It writes schema.json of a run directory.
//
// Method: M. Oita, "Deriving semantic objects from the structured web", PhD thesis,
// Télécom ParisTech 2012, ch. 3 §3.3–3.4.
package schema
