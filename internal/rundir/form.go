package rundir

// The input schema of a form, as written to form.json. These types are the contract
// between form discovery (package probe: parse, classify), the prober, package schema
// (which reads a form's fields to map them to output attributes) and cmd. Package probe
// names them with aliases (probe.Form = rundir.Form).

// Class is what a form is for.
type Class string

// The form classes. trawl submits only ClassSearch forms unless told otherwise.
const (
	ClassSearch           Class = "search"
	ClassLogin            Class = "login"
	ClassRegistration     Class = "registration"
	ClassPasswordRecovery Class = "password-recovery"
	ClassContact          Class = "contact" // contact, comment, feedback
	ClassMailingList      Class = "mailing-list"
	ClassOrder            Class = "order" // order, payment, checkout
	ClassOther            Class = "other"
)

// Form is one form of a page: a <form> element, or controls outside any <form> that a
// search button ties together. It is the content of form.json.
type Form struct {
	// Index is the form's position among the page's <form> elements in document order,
	// or nil for a form without a <form> element.
	Index *int `json:"index"`
	// XPath locates the form element (or the nearest common ancestor of its controls)
	// in the page, index-qualified: /html[1]/body[1]/form[2].
	XPath string `json:"xpath"`
	// Class is what the form is for; Confidence is the classifier's probability of it.
	Class      Class   `json:"class"`
	Confidence float64 `json:"confidence"`
	// KeywordFields lists the name attributes of the keyword box(es) of a search form.
	KeywordFields []string `json:"keyword_fields"`
	// Method is "GET" or "POST"; Action is the absolute URL the form submits to;
	// Enctype is the form's encoding type.
	Method  string `json:"method"`
	Action  string `json:"action"`
	Enctype string `json:"enctype,omitempty"`
	// Fields are the form's controls in document order, submit controls included.
	Fields []Field `json:"fields"`
	// PageURL is the URL of the page the form was found on.
	PageURL string `json:"page_url,omitempty"`
	// Text is the visible text around the form (headings, hints), used for probe terms.
	Text string `json:"text,omitempty"`

	// Added by the form parser (parse.go) as classification evidence.

	// ID, Name and CSSClass are the id, name and class attributes of the form element.
	ID       string `json:"id,omitempty"`
	Name     string `json:"name,omitempty"`
	CSSClass string `json:"css_class,omitempty"`
	// Landmark is "search" when the form is or sits in a search landmark (role=search
	// or <search>), else the nearest other landmark around it ("navigation", "banner",
	// "main", "contentinfo", "complementary", "dialog"), or "".
	Landmark string `json:"landmark,omitempty"`
	// TextBefore is the visible text right before the form (a heading, a hint); Text
	// starts with it.
	TextBefore string `json:"text_before,omitempty"`
	// Links are the texts of the links inside the form ("Forgot your password?").
	Links []string `json:"links,omitempty"`
}

// Field is one control of a form.
type Field struct {
	// Name is the name attribute (the key submitted); ID the id attribute.
	Name string `json:"name"`
	ID   string `json:"id,omitempty"`
	// Tag is input, select, textarea or button; Type is the input type (text, search,
	// hidden, checkbox, radio, submit, number, date, email, password, …), "select" or
	// "select-multiple" for selects, "textarea" for text areas.
	Tag  string `json:"tag"`
	Type string `json:"type"`
	// Label is the human label: label[for], a wrapping label, aria-label,
	// aria-labelledby, placeholder, title, or the nearest preceding text, in that order;
	// LabelSource says which one gave it.
	Label       string `json:"label,omitempty"`
	LabelSource string `json:"label_source,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	// Value is the default value (selected option(s) of a select, checked state of a
	// checkbox or radio expressed by Checked).
	Value   string `json:"value,omitempty"`
	Checked bool   `json:"checked,omitempty"`
	// Options are the choices of a select, or of a radio or checkbox group (one Field
	// per group, its options the group's members).
	Options []Option `json:"options,omitempty"`
	// Constraints.
	Required  bool   `json:"required,omitempty"`
	Disabled  bool   `json:"disabled,omitempty"`
	ReadOnly  bool   `json:"readonly,omitempty"`
	Multiple  bool   `json:"multiple,omitempty"`
	MaxLength int    `json:"maxlength,omitempty"`
	MinLength int    `json:"minlength,omitempty"`
	Pattern   string `json:"pattern,omitempty"`
	Min       string `json:"min,omitempty"`
	Max       string `json:"max,omitempty"`
	Step      string `json:"step,omitempty"`
	// Submit is true for submit controls (input type=submit/image, button type=submit).
	Submit bool `json:"submit,omitempty"`
	// Role is the classifier's guess of the field's purpose: "keyword" for a keyword box,
	// else a short tag such as "username", "password", "email", "sort", "page-size",
	// "hidden", "submit", "other".
	Role string `json:"role,omitempty"`
	// XPath locates the control in the page.
	XPath string `json:"xpath,omitempty"`

	// Added by the form parser (parse.go) as classification evidence: the title,
	// class and autocomplete attributes (autocomplete lower-cased).
	Title        string `json:"title,omitempty"`
	CSSClass     string `json:"css_class,omitempty"`
	Autocomplete string `json:"autocomplete,omitempty"`
}

// Option is one choice of a select, radio group or checkbox group.
type Option struct {
	Value    string `json:"value"`
	Text     string `json:"text"`
	Selected bool   `json:"selected,omitempty"`
	// Disabled options (or options of a disabled optgroup or fieldset) cannot be chosen.
	Disabled bool `json:"disabled,omitempty"`
}

// IsText reports whether the field takes free text (text, search, textarea, email, url,
// tel, number without options, or an input without type).
func (f Field) IsText() bool {
	switch f.Type {
	case "", "text", "search", "textarea", "email", "url", "tel", "number":
		return len(f.Options) == 0
	}
	return false
}
