package probe

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// The features of the form and field classifiers: bags of words and of character
// n-grams of a form's markup and text, counts of its controls by type, and for a field
// its own markup and position plus the class of its form. Each feature is a string with
// a namespace prefix ("act:search"); the model maps the strings it knows to weights.
//
// The choice follows Formasaurus (TeamHG-Memex/Formasaurus, formtype_model.py and
// fieldtype_model.py: counts of control types, submit texts, link texts, label texts,
// character n-grams of the action, of the form's and the inputs' class and id and of
// the input names), re-implemented and extended with placeholders, landmarks, the text
// before the form and autocomplete tokens.

// featureVersion names the feature extraction; a model trained with another version is
// refused, so that a change here forces `go generate`.
const featureVersion = 5

// featureSet collects feature strings without duplicates.
type featureSet struct {
	seen map[string]bool
	list []string
}

func newFeatureSet() *featureSet { return &featureSet{seen: map[string]bool{}} }

func (s *featureSet) add(f string) {
	if !s.seen[f] {
		s.seen[f] = true
		s.list = append(s.list, f)
	}
}

// words adds the word unigrams (and bigrams when bigrams is set) of text.
func (s *featureSet) words(ns, text string, bigrams bool) {
	toks := words(text)
	for i, t := range toks {
		s.add(ns + t)
		if bigrams && i > 0 {
			s.add(ns + toks[i-1] + "_" + t)
		}
	}
}

// grams adds the character n-grams (n = lo..hi) of each word of an identifier-like
// text, each word padded with '^' and '$'.
func (s *featureSet) grams(ns, text string, lo, hi int) {
	for _, w := range identWords(text) {
		r := []rune("^" + w + "$")
		for n := lo; n <= hi; n++ {
			for i := 0; i+n <= len(r); i++ {
				s.add(ns + string(r[i:i+n]))
			}
		}
	}
}

// words splits text into folded words; camelCase is split ("loginForm" → login form)
// and runs of digits become "0".
func words(text string) []string {
	toks := textnorm.Tokens(splitCamel(text))
	for i, t := range toks {
		if strings.ContainsFunc(t, unicode.IsDigit) {
			toks[i] = digitRuns(t)
		}
	}
	return toks
}

// identWords splits an identifier-like text (names, ids, classes, URLs) into folded
// alphanumeric words, keeping compounds whole ("search_form" → searchform) so that the
// character n-grams see across the separators, as Formasaurus does.
func identWords(text string) []string {
	var out []string
	for _, f := range strings.Fields(textnorm.Fold(text)) {
		var b strings.Builder
		for _, r := range f {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(r)
			}
		}
		if w := b.String(); w != "" {
			out = append(out, digitRuns(w))
		}
	}
	return out
}

// splitCamel inserts a space at each lower-to-upper case boundary.
func splitCamel(s string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range s {
		if unicode.IsUpper(r) && prevLower {
			b.WriteByte(' ')
		}
		prevLower = unicode.IsLower(r)
		b.WriteRune(r)
	}
	return b.String()
}

// digitRuns replaces each run of digits by one "0".
func digitRuns(s string) string {
	var b strings.Builder
	inDigits := false
	for _, r := range s {
		if unicode.IsDigit(r) {
			if !inDigits {
				b.WriteByte('0')
			}
			inDigits = true
			continue
		}
		inDigits = false
		b.WriteRune(r)
	}
	return b.String()
}

// bucket names a count: 0, 1, 2, 3, 4-5, 6-9, 10+.
func bucket(n int) string {
	switch {
	case n <= 3:
		return strconv.Itoa(n)
	case n <= 5:
		return "4-5"
	case n <= 9:
		return "6-9"
	}
	return "10+"
}

// actionText returns the path and query of a form action without its host, as
// identifier-like text ("/search/results.php?q=" → "search results php q").
func actionText(action string) string {
	u, err := url.Parse(action)
	if err != nil {
		return action
	}
	var b strings.Builder
	b.WriteString(u.Path)
	q := u.Query()
	for _, k := range slices.Sorted(maps.Keys(q)) {
		b.WriteString(" " + k)
		for _, v := range q[k] {
			b.WriteString(" " + v)
		}
	}
	return strings.NewReplacer("/", " ", ".", " ", "-", " ", "_", " ", "=", " ", "&", " ").Replace(b.String())
}

// kind is the coarse type of a field used in counts and conjunctions.
func kind(fl Field) string {
	switch fl.Type {
	case "", "text", "search", "tel", "url", "number":
		if fl.Type == "search" {
			return "search"
		}
		return "text"
	case "select", "select-multiple":
		return "select"
	case "submit", "image":
		return "submit"
	}
	return fl.Type
}

// formFeatures returns the features of a form for the form classifier.
func formFeatures(f *Form) []string {
	s := newFeatureSet()
	s.add("method:" + strings.ToLower(f.Method))
	if f.Index == nil {
		s.add("formless")
	}
	if f.Landmark != "" {
		s.add("landmark:" + f.Landmark)
	}
	counts := map[string]int{}
	visible := 0
	for _, fl := range f.Fields {
		k := kind(fl)
		counts[k]++
		if k != "hidden" {
			visible++
		}
	}
	// A type=search box is a text box too (it has its own count as well): the counts
	// of text boxes learnt on pages of type=text boxes then hold for it.
	counts["text"] += counts["search"]
	for _, k := range []string{"text", "search", "password", "email", "textarea", "select",
		"checkbox", "radio", "file", "hidden", "submit", "button", "reset", "date"} {
		s.add("n:" + k + "=" + bucket(counts[k]))
	}
	s.add("n:visible=" + bucket(visible))
	s.add("pw" + bucket(counts["password"]) + "|text" + bucket(counts["text"]+counts["email"]))
	s.grams("act:", actionText(f.Action), 4, 5)
	s.words("actw:", actionText(f.Action), false)
	s.grams("css:", f.ID+" "+f.Name+" "+f.CSSClass, 4, 5)
	s.words("cssw:", f.ID+" "+f.Name+" "+f.CSSClass, false)
	for _, fl := range f.Fields {
		if fl.Type == "hidden" {
			s.words("hidden:", fl.Name, false)
			continue
		}
		if fl.Submit || fl.Tag == "button" {
			s.words("submit:", fl.Label+" "+fl.Value, true)
			s.grams("submitcss:", fl.Name+" "+fl.ID+" "+fl.CSSClass, 4, 5)
			continue
		}
		s.grams("name:", fl.Name, 4, 5)
		s.words("namew:", fl.Name, false)
		s.grams("icss:", fl.ID+" "+fl.CSSClass, 4, 5)
		s.words("label:", fl.Label, true)
		s.words("ph:", fl.Placeholder, true)
		s.words("title:", fl.Title, false)
		if fl.Autocomplete != "" {
			s.add("ac:" + fl.Autocomplete)
		}
		for j, o := range fl.Options {
			if j >= 20 {
				break
			}
			s.words("opt:", o.Text, false)
		}
	}
	for _, l := range f.Links {
		s.words("link:", l, true)
	}
	s.words("before:", f.TextBefore, false)
	inner := strings.TrimPrefix(f.Text, f.TextBefore)
	s.words("text:", cut(inner, 600), false)
	// purpose words, by where they occur
	s.addPurposes("form", f.ID+" "+f.Name+" "+f.CSSClass+" "+actionText(f.Action), true)
	var fieldIdent, labels, submits []string
	for _, fl := range f.Fields {
		switch {
		case fl.Type == "hidden":
		case fl.Submit || fl.Tag == "button":
			submits = append(submits, fl.Label, fl.Value, fl.Name, fl.ID, fl.CSSClass)
		default:
			// The input type is an identifier too: type=search says what a box is for.
			fieldIdent = append(fieldIdent, fl.Name, fl.ID, fl.CSSClass, fl.Type)
			labels = append(labels, fl.Label, fl.Placeholder, fl.Title)
		}
	}
	s.addPurposes("fields", strings.Join(fieldIdent, " "), true)
	s.addPurposes("labels", strings.Join(labels, " "), false)
	s.addPurposes("submit", strings.Join(submits, " "), true)
	s.addPurposes("links", strings.Join(f.Links, " "), false)
	s.addPurposes("before", f.TextBefore, false)
	s.addPurposes("text", cut(inner, 600), false)
	return s.list
}

// layout holds the positions of a form's fields, computed once per form.
type layout struct {
	visible, texts int   // numbers of visible fields and of text boxes
	pos, textPos   []int // position of each field among the visible ones / the text boxes (-1: none)
}

func newLayout(f *Form) layout {
	l := layout{pos: make([]int, len(f.Fields)), textPos: make([]int, len(f.Fields))}
	for j, o := range f.Fields {
		l.pos[j], l.textPos[j] = -1, -1
		if o.Type == "hidden" {
			continue
		}
		l.pos[j] = l.visible
		l.visible++
		if k := kind(o); k == "text" || k == "search" {
			l.textPos[j] = l.texts
			l.texts++
		}
	}
	return l
}

// fieldFeatures returns the features of field i of f for the field classifier, given
// the class of the form and the form's layout.
func fieldFeatures(f *Form, l layout, i int, class Class) []string {
	fl := f.Fields[i]
	s := newFeatureSet()
	k := kind(fl)
	c := "class:" + string(class)
	s.add(c)
	s.add("tag:" + fl.Tag)
	s.add("type:" + fl.Type)
	s.add(c + "|" + k)
	s.grams("name:", fl.Name, 3, 5)
	s.words("namew:", fl.Name, false)
	s.grams("id:", fl.ID, 4, 4)
	s.grams("css:", fl.CSSClass, 4, 5)
	s.words("label:", fl.Label, true)
	s.grams("labelg:", fl.Label, 3, 4)
	s.add("labelsrc:" + fl.LabelSource)
	s.addPurposes("ident", fl.Name+" "+fl.ID+" "+fl.CSSClass+" "+fl.Type, true)
	s.addPurposes("label", fl.Label+" "+fl.Placeholder+" "+fl.Title, false)
	s.words("ph:", fl.Placeholder+" "+fl.Title, false)
	if fl.Autocomplete != "" {
		s.add("ac:" + fl.Autocomplete)
	}
	if fl.Submit || fl.Tag == "button" {
		s.words("value:", fl.Value, false)
	}
	if fl.Value != "" && k == "text" {
		s.add("hasvalue")
	}
	if fl.MaxLength > 0 {
		s.add("maxlength:" + bucket(fl.MaxLength/10))
	}
	if fl.Required {
		s.add("required")
	}
	if len(fl.Options) > 0 {
		s.add("options:" + bucket(len(fl.Options)))
		numeric := 0
		for j, o := range fl.Options {
			if j < 30 {
				s.words("opt:", o.Text, false)
			}
			if _, err := strconv.Atoi(strings.TrimSpace(o.Text)); err == nil {
				numeric++
			}
		}
		if numeric*2 > len(fl.Options) {
			s.add("options:numeric")
		}
	}
	// position among the visible fields and among the text boxes
	pos, textPos := l.pos[i], l.textPos[i]
	switch {
	case pos == 0:
		s.add("first")
	case pos == l.visible-1:
		s.add("last")
	}
	s.add("texts:" + bucket(l.texts))
	if textPos >= 0 {
		s.add(c + "|textpos:" + bucket(textPos))
		s.add(c + "|texts:" + bucket(l.texts))
		if textPos == 0 {
			s.add("firsttext")
		}
	}
	// the fields around this one
	if i > 0 {
		s.add("prev:" + kind(f.Fields[i-1]))
	}
	if i+1 < len(f.Fields) {
		s.add("next:" + kind(f.Fields[i+1]))
	}
	return s.list
}
