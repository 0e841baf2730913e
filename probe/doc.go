// Package probe is trawl's hands: it drives headless Chromium (chromedp) to find the forms
// of a page after its scripts ran, classify them (search, login, registration, …), read a
// search form's input schema (fields, labels, options, constraints), plan domain-agnostic
// probes (a nonsense word, stop words, option values, terms from the page), submit them
// like a person, and keep every result page with its timings.
//
// It is the only package that talks to a browser. It writes form.json, probes.jsonl and
// pages/ of a run directory. It never submits a form it does not classify as a search
// form unless told to, stays on the form's origin, honours robots.txt and waits between
// requests.
//
// A result page counts only when it was read after it settled and the capture can
// count: not empty, not a head without body content, with an HTTP status when a new
// document came, and not the form page unchanged. A probe whose page cannot count, whose
// page stopped answering or whose step ran out of time is tried again (MaxAttempts) and
// each failed attempt is kept as a warning; the time limits derive from
// Options.StepTimeout and grow with the browser's measured answer time on a busy
// machine. Fields hidden in collapsed panels, closed <details> or inactive tabs are
// shown by clicking the control that opens them before they are filled, and values are
// checked against their field's type first (CheckValue).
//
// Method: M. Oita, "Deriving semantic objects from the structured web", PhD thesis,
// Télécom ParisTech 2012, ch. 3 §3.1–3.2.
//
// Form understanding (ParseForms, Classify) works on HTML alone. Labels follow the HTML
// label association and accessible-name sources, then nearby text (as in HiWE,
// Raghavan & Garcia-Molina, VLDB 2001). The form and field classifier follows the
// two-stage design of Formasaurus (TeamHG-Memex/Formasaurus: form type by logistic
// regression over bags of words and character n-grams, then field types with the form
// type as a feature), re-implemented in Go and trained on its annotated pages.
package probe
