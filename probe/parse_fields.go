package probe

import (
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

// The fields of a form: one Field per control, except radio buttons and checkboxes that
// share a name, which make one Field per group.

// inputTypes are the input types browsers know; any other type behaves as "text".
var inputTypes = map[string]bool{
	"hidden": true, "text": true, "search": true, "tel": true, "url": true, "email": true,
	"password": true, "date": true, "month": true, "week": true, "time": true,
	"datetime-local": true, "number": true, "range": true, "color": true, "checkbox": true,
	"radio": true, "file": true, "submit": true, "image": true, "reset": true, "button": true,
}

// controlType returns the tag and the normalised type of a control.
func controlType(n *html.Node) (tag, typ string) {
	switch n.Data {
	case "select":
		if hasAttr(n, "multiple") {
			return "select", "select-multiple"
		}
		return "select", "select"
	case "textarea":
		return "textarea", "textarea"
	case "button":
		switch t := strings.ToLower(strings.TrimSpace(attr(n, "type"))); t {
		case "reset", "button":
			return "button", t
		}
		return "button", "submit"
	}
	t := strings.ToLower(strings.TrimSpace(attr(n, "type")))
	if t == "datetime" {
		t = "datetime-local"
	}
	if !inputTypes[t] {
		t = "text"
	}
	return "input", t
}

// fields builds the fields of a form from its controls in document order.
func (p *page) fields(fn *html.Node, controls []control) []Field {
	// Count the members of each named radio and checkbox group.
	groupSize := map[string]int{}
	for _, c := range controls {
		if _, t := controlType(c.n); t == "radio" || t == "checkbox" {
			if name := attr(c.n, "name"); name != "" {
				groupSize[t+"\x00"+name]++
			}
		}
	}
	out := []Field{}
	groupAt := map[string]int{} // group key → index in out
	for _, c := range controls {
		tag, typ := controlType(c.n)
		name := attr(c.n, "name")
		key := typ + "\x00" + name
		if (typ == "radio" || typ == "checkbox") && name != "" && (typ == "radio" || groupSize[key] > 1) {
			opt := p.choice(c, fn)
			if at, ok := groupAt[key]; ok {
				g := &out[at]
				g.Options = append(g.Options, opt)
				if opt.Selected {
					if typ == "radio" {
						// only the last checked radio of a group stays checked
						for i := range g.Options[:len(g.Options)-1] {
							g.Options[i].Selected = false
						}
						g.Value = opt.Value
					} else if !g.Checked {
						g.Value = opt.Value
					}
					g.Checked = true
				}
				g.Required = g.Required || hasAttr(c.n, "required")
				continue
			}
			f := p.field(c, fn, tag, typ)
			f.Options = []Option{opt}
			f.Value = ""
			f.Checked = opt.Selected
			if opt.Selected {
				f.Value = opt.Value
			}
			f.Label, f.LabelSource = p.groupLabel(c, fn)
			groupAt[key] = len(out)
			out = append(out, f)
			continue
		}
		out = append(out, p.field(c, fn, tag, typ))
	}
	return out
}

// field describes one control.
func (p *page) field(c control, fn *html.Node, tag, typ string) Field {
	n := c.n
	f := Field{
		Name:         attr(n, "name"),
		ID:           attr(n, "id"),
		Tag:          tag,
		Type:         typ,
		Placeholder:  collapse(attr(n, "placeholder")),
		Title:        collapse(attr(n, "title")),
		CSSClass:     collapse(attr(n, "class")),
		Autocomplete: strings.ToLower(collapse(attr(n, "autocomplete"))),
		Required:     hasAttr(n, "required"),
		Disabled:     p.disabled(n),
		ReadOnly:     hasAttr(n, "readonly"),
		Multiple:     hasAttr(n, "multiple"),
		MaxLength:    atoiAttr(n, "maxlength"),
		MinLength:    atoiAttr(n, "minlength"),
		Pattern:      attr(n, "pattern"),
		Min:          strings.TrimSpace(attr(n, "min")),
		Max:          strings.TrimSpace(attr(n, "max")),
		Step:         strings.TrimSpace(attr(n, "step")),
		XPath:        p.xp.xpath(n),
	}
	switch {
	case tag == "select":
		f.Options, f.Value = selectOptions(n)
	case tag == "textarea":
		f.Value = textContent(n)
	case typ == "checkbox" || typ == "radio":
		f.Value = "on"
		if hasAttr(n, "value") {
			f.Value = attr(n, "value")
		}
		f.Checked = hasAttr(n, "checked")
	default:
		f.Value = attr(n, "value")
	}
	switch typ {
	case "submit", "image":
		f.Submit = true
	}
	f.Label, f.LabelSource = p.label(c, fn, tag, typ)
	return f
}

// disabled reports whether n is disabled: its own attribute, or a disabled fieldset
// ancestor (controls in that fieldset's first legend excepted).
func (p *page) disabled(n *html.Node) bool {
	if hasAttr(n, "disabled") {
		return true
	}
	for a := n.Parent; a != nil; a = a.Parent {
		if isElement(a, "fieldset") && hasAttr(a, "disabled") {
			for c := a.FirstChild; c != nil; c = c.NextSibling {
				if isElement(c, "legend") {
					if isAncestor(c, n) {
						return false
					}
					break
				}
			}
			return true
		}
	}
	return false
}

// textContent returns the text of n's subtree as written (the default of a textarea).
func textContent(n *html.Node) string {
	// the parser drops one leading newline of a textarea; so does the browser
	return strings.TrimPrefix(goquery.NewDocumentFromNode(n).Text(), "\n")
}

// maxOptions caps the options read from one select (some pages list every city).
const maxOptions = 5000

// selectOptions returns the options of a select and the value it submits by default:
// the last option marked selected, else (single selects) the first enabled option.
func selectOptions(n *html.Node) ([]Option, string) {
	var opts []Option
	// Options count wherever they sit in the select (in optgroups, or in stray div and
	// span elements the parser keeps); a disabled optgroup disables its options.
	goquery.NewDocumentFromNode(n).Find("option").EachWithBreak(func(_ int, o *goquery.Selection) bool {
		value, ok := o.Attr("value")
		if !ok {
			value = collapse(o.Text())
		}
		text := collapse(o.AttrOr("label", ""))
		if text == "" {
			text = collapse(o.Text())
		}
		_, selected := o.Attr("selected")
		off := o.Is("[disabled]") || o.ParentsFiltered("optgroup[disabled]").Length() > 0
		opts = append(opts, Option{Value: value, Text: text, Selected: selected, Disabled: off})
		return len(opts) < maxOptions
	})
	multiple := hasAttr(n, "multiple")
	if !multiple {
		last := -1
		for i := range opts {
			if opts[i].Selected {
				last = i
			}
			opts[i].Selected = false
		}
		if last < 0 && atoiAttr(n, "size") <= 1 {
			for i := range opts {
				if !opts[i].Disabled {
					last = i
					break
				}
			}
		}
		if last >= 0 {
			opts[last].Selected = true
			return opts, opts[last].Value
		}
		return opts, ""
	}
	for _, o := range opts {
		if o.Selected {
			return opts, o.Value
		}
	}
	return opts, ""
}

// choice makes the Option of one radio button or checkbox of a group.
func (p *page) choice(c control, fn *html.Node) Option {
	value := "on"
	if hasAttr(c.n, "value") {
		value = attr(c.n, "value")
	}
	text, _ := p.choiceText(c, fn)
	if text == "" {
		text = value
	}
	return Option{Value: value, Text: text, Selected: hasAttr(c.n, "checked"),
		Disabled: p.disabled(c.n)}
}

// label returns the label of a control and where it came from, in the order of the
// input schema: label[for], a wrapping label, aria-label, aria-labelledby, placeholder,
// title, then the nearest text (following text first for a checkbox or radio, whose
// label usually comes after it). Buttons are named by their own text or value first.
func (p *page) label(c control, fn *html.Node, tag, typ string) (string, string) {
	n := c.n
	if tag == "button" || typ == "submit" || typ == "reset" || typ == "button" || typ == "image" {
		switch {
		case tag == "button":
			if t := cleanLabel(renderedText(n, textOptions{limit: maxLabel})); t != "" {
				return t, "content"
			}
		case typ == "image":
			if t := cleanLabel(attr(n, "alt")); t != "" {
				return t, "alt"
			}
		default:
			if t := cleanLabel(attr(n, "value")); t != "" {
				return t, "value"
			}
		}
	}
	if typ == "hidden" {
		return "", ""
	}
	if t, src := p.explicitLabel(n); t != "" {
		return t, src
	}
	if typ == "checkbox" || typ == "radio" {
		if t := p.textAfter(c.pos, fn); t != "" {
			return t, "text-after"
		}
	}
	if typ == "submit" || typ == "reset" || typ == "button" || typ == "image" {
		return "", ""
	}
	if t := p.textBeforeControl(c.pos, fn); t != "" {
		return t, "text"
	}
	return "", ""
}

// explicitLabel returns the label given by markup: label[for], a wrapping label,
// aria-label, aria-labelledby, placeholder, title.
func (p *page) explicitLabel(n *html.Node) (string, string) {
	if id := attr(n, "id"); id != "" && p.byID[id] == n {
		for _, l := range p.labelFor[id] {
			if t := cleanLabel(renderedText(l, textOptions{skipControls: true, limit: maxLabel})); t != "" {
				return t, "for"
			}
		}
	}
	for a := n.Parent; a != nil; a = a.Parent {
		if isElement(a, "label") {
			if f := attr(a, "for"); f == "" || f == attr(n, "id") {
				if t := cleanLabel(renderedText(a, textOptions{skipControls: true, limit: maxLabel})); t != "" {
					return t, "wrap"
				}
			}
			break
		}
		if isElement(a, "form") {
			break
		}
	}
	if t := cleanLabel(attr(n, "aria-label")); t != "" {
		return t, "aria-label"
	}
	if ids := strings.Fields(attr(n, "aria-labelledby")); len(ids) > 0 {
		var parts []string
		for _, id := range ids {
			if e, ok := p.byID[id]; ok {
				if t := renderedText(e, textOptions{skipControls: true, limit: maxLabel}); t != "" {
					parts = append(parts, t)
				}
			}
		}
		if t := cleanLabel(cut(strings.Join(parts, " "), maxLabel)); t != "" {
			return t, "aria-labelledby"
		}
	}
	if t := cleanLabel(attr(n, "placeholder")); t != "" {
		return t, "placeholder"
	}
	if t := cleanLabel(attr(n, "title")); t != "" {
		return t, "title"
	}
	return "", ""
}

// choiceText names one radio button or checkbox: its explicit label, else the text
// after it, else the text before it.
func (p *page) choiceText(c control, fn *html.Node) (string, string) {
	if t, src := p.explicitLabel(c.n); t != "" {
		return t, src
	}
	if t := p.textAfter(c.pos, fn); t != "" {
		return t, "text-after"
	}
	return "", ""
}

// groupLabel names a radio or checkbox group: the legend of its fieldset, the label of
// an enclosing radiogroup/group, else the text before its first member.
func (p *page) groupLabel(c control, fn *html.Node) (string, string) {
	for a := c.n.Parent; a != nil && a != fn; a = a.Parent {
		if isElement(a, "fieldset") {
			for k := a.FirstChild; k != nil; k = k.NextSibling {
				if isElement(k, "legend") {
					if t := cleanLabel(renderedText(k, textOptions{skipControls: true, limit: maxLabel})); t != "" {
						return t, "legend"
					}
				}
			}
			break
		}
		if r := attr(a, "role"); r == "radiogroup" || r == "group" {
			if t, src := p.explicitLabel(a); t != "" {
				return t, src
			}
		}
	}
	if t := p.textBeforeControl(c.pos, fn); t != "" {
		// the text right before the first member is often the first member's own
		// label when labels precede; accept it only when it is not that label
		if own, _ := p.explicitLabel(c.n); own != t {
			return t, "text"
		}
	}
	return "", ""
}

// textBeforeControl returns the nearest visible text before the control at pos, within
// its form: the first non-empty text node met walking back in document order, unless a
// control comes first. Text longer than a label is not a label.
func (p *page) textBeforeControl(pos int, fn *html.Node) string {
	for i, steps := pos-1, 0; i >= 0 && steps < 60; i, steps = i-1, steps+1 {
		n := p.nodes[i]
		if n == fn {
			break
		}
		if n.Type == html.ElementNode {
			if isControlElement(n) {
				break
			}
			continue
		}
		if n.Type != html.TextNode || p.unseen[i] {
			continue
		}
		if n.Parent != nil && isControlElement(controlOf(n.Parent)) {
			break // the content of a preceding textarea, select or button
		}
		if t := cleanLabel(n.Data); t != "" {
			if len(t) > maxLabel {
				return ""
			}
			return t
		}
	}
	return ""
}

// controlOf returns the control that holds n (n itself, or the select of an option),
// else n.
func controlOf(n *html.Node) *html.Node {
	for a, l := n, 0; a != nil && l < 3; a, l = a.Parent, l+1 {
		if a.Type == html.ElementNode {
			switch a.Data {
			case "select", "textarea", "button":
				return a
			}
		}
	}
	return n
}

// textAfter returns the nearest visible text after the control at pos, before the next
// control, within the form fn (nil: anywhere).
func (p *page) textAfter(pos int, fn *html.Node) string {
	for i, steps := pos+1, 0; i < len(p.nodes) && steps < 30; i, steps = i+1, steps+1 {
		n := p.nodes[i]
		if fn != nil && n != fn && !isAncestor(fn, n) {
			// left the form element; controls owned from outside have no such bound
			if isAncestor(fn, p.nodes[pos]) {
				break
			}
		}
		if n.Type == html.ElementNode {
			if isControlElement(n) {
				break
			}
			continue
		}
		if n.Type != html.TextNode || p.unseen[i] {
			continue
		}
		if t := cleanLabel(n.Data); t != "" {
			if len(t) > maxLabel {
				return ""
			}
			return t
		}
	}
	return ""
}

// isControlElement reports whether n is a visible form control.
func isControlElement(n *html.Node) bool {
	switch n.Data {
	case "select", "textarea", "button":
		return true
	case "input":
		return !strings.EqualFold(strings.TrimSpace(attr(n, "type")), "hidden")
	}
	return false
}
