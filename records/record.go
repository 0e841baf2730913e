package records

// The output of record isolation: records.jsonl has one Record per line. These types are
// the contract between FOREST (this package), package schema and cmd.

// Record is one response record found on a result page.
type Record struct {
	// Page names the page the record was found on (the run-relative file, or the path
	// given on the command line).
	Page string `json:"page"`
	// XPath is the record's absolute, index-qualified XPath in that page, e.g.
	// /html[1]/body[1]/div[2]/ul[1]/li[3]. A record made of several sibling elements
	// (a record split over table rows, a <dt>/<dd> pair) has the XPath of its first
	// element and lists the others in Extra.
	XPath string   `json:"xpath"`
	Extra []string `json:"extra_xpaths,omitempty"`
	// Leaves are the record's content leaves in document order.
	Leaves []Leaf `json:"leaves"`
}

// Leaf is one content leaf of a record: a text node, or a link or image that carries a
// URL or alternative text.
type Leaf struct {
	// Path is the record-internal path of the leaf in tolerant form: element types with
	// their tolerant class attribute, from the record root down, e.g.
	// "div.data-container/span.first-line". It is what aligns attributes across records.
	Path string `json:"path"`
	// Text is the leaf's text, white space collapsed.
	Text string `json:"text,omitempty"`
	// Href is the absolute URL of the enclosing link, Src of an image; Alt an image's
	// alternative text.
	Href string `json:"href,omitempty"`
	Src  string `json:"src,omitempty"`
	Alt  string `json:"alt,omitempty"`
}
