package probe

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"

	"github.com/trawl-dev/trawl/internal/logreg"
)

// Form and field classification. Two linear models (multinomial logistic regression)
// trained on the Formasaurus corpus: one gives the class of a form from its features,
// the other the role of each field from the field's features and its form's class,
// the two-stage design of Formasaurus (form type first, then field types with the form
// type as a feature). The keyword boxes of a search form are its fields whose most
// likely role is "keyword"; when none is, the text box with the highest keyword
// probability above a threshold learned in training.

// Field roles set by Classify.
const (
	RoleKeyword  = "keyword"  // the keyword box of a search form
	RoleCategory = "category" // a search refinement: category, field, language selector
	RoleUsername = "username"
	RolePassword = "password"
	RoleEmail    = "email"
	RoleSubmit   = "submit"
	RoleSort     = "sort"
	RoleCaptcha  = "captcha"
	RoleHidden   = "hidden"
	RoleOther    = "other"
)

// Classes lists the form classes in a fixed order.
var Classes = []Class{ClassSearch, ClassLogin, ClassRegistration, ClassPasswordRecovery,
	ClassContact, ClassMailingList, ClassOrder, ClassOther}

// Roles lists the field roles the field model predicts (RoleHidden is set from the
// field type).
var Roles = []string{RoleKeyword, RoleCategory, RoleUsername, RolePassword, RoleEmail,
	RoleSubmit, RoleSort, RoleCaptcha, RoleOther}

// Classifier holds a trained form model and field model.
type Classifier struct {
	form, field linear
	// keywordMin is the keyword probability above which the best text box of a search
	// form without a predicted keyword box becomes its keyword box.
	keywordMin float64
	about      string
}

// linear is a multinomial logistic regression over feature strings.
type linear struct {
	labels  []string
	bias    []float64
	weights map[string][]float64
}

// probs returns the probability of each label given the features.
func (l *linear) probs(features []string) []float64 {
	z := make([]float64, len(l.labels))
	copy(z, l.bias)
	for _, f := range features {
		if w, ok := l.weights[f]; ok {
			for k := range z {
				z[k] += w[k]
			}
		}
	}
	return logreg.Softmax(z)
}

// defaultClassifier is the model embedded in the binary (model_forms.json).
var defaultClassifier = sync.OnceValues(func() (*Classifier, error) {
	zr, err := gzip.NewReader(bytes.NewReader(embeddedModel))
	if err != nil {
		return nil, fmt.Errorf("probe: embedded form model: %w", err)
	}
	return ReadClassifier(zr)
})

// DefaultClassifier returns the classifier trained on the Formasaurus corpus that is
// embedded in trawl (probe/model_forms.json.gz, made by go generate).
func DefaultClassifier() (*Classifier, error) { return defaultClassifier() }

// Classify sets f.Class, f.Confidence, f.KeywordFields and the Role of every field
// with the embedded classifier. It reads only f itself, so a form read back from
// form.json can be classified again. It panics only if the embedded model is broken,
// which the package tests rule out.
func Classify(f *Form) {
	c, err := defaultClassifier()
	if err != nil {
		panic(err)
	}
	c.Classify(f)
}

// Classify sets f.Class, f.Confidence, f.KeywordFields and the Role of every field.
func (c *Classifier) Classify(f *Form) {
	p := c.classProbs(f)
	best := argmax(p)
	f.Class = Class(c.form.labels[best])
	f.Confidence = p[best]
	c.setRoles(f)
}

// ClassProbabilities returns the probability of each class of Classes for f.
func (c *Classifier) ClassProbabilities(f *Form) map[Class]float64 {
	p := c.classProbs(f)
	out := make(map[Class]float64, len(p))
	for i, l := range c.form.labels {
		out[Class(l)] = p[i]
	}
	return out
}

// classProbs returns the class probabilities of the form model, under one constraint:
// a form with a password field is a login, registration, password-recovery or other
// form. In the Formasaurus annotations 288 forms have a password field and none of them
// is a search, contact, mailing-list or order form; trawl must never take such a form for
// a search form, whatever its words say.
//
// A second constraint: a form whose only inputs are code boxes (SQL, a script: see
// queryBox) is not a search form either. It takes a program, not query words,
// and has nothing trawl could probe.
func (c *Classifier) classProbs(f *Form) []float64 {
	p := c.form.probs(formFeatures(f))
	if onlyCode(f) {
		if i := indexOf(c.form.labels, string(ClassSearch)); i >= 0 && p[i] < 1 {
			rest := 1 - p[i]
			p[i] = 0
			for k := range p {
				p[k] /= rest
			}
		}
	}
	if !slices.ContainsFunc(f.Fields, func(fl Field) bool { return fl.Type == "password" }) {
		return p
	}
	sum := 0.0
	for i, l := range c.form.labels {
		switch Class(l) {
		case ClassLogin, ClassRegistration, ClassPasswordRecovery, ClassOther:
			sum += p[i]
		default:
			p[i] = 0
		}
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// onlyCode reports whether every input of f that a person fills (text boxes, choices)
// is a code box, and there is one.
func onlyCode(f *Form) bool {
	code := 0
	for _, fl := range f.Fields {
		switch {
		case fl.Type == "hidden" || fl.Submit || fl.Tag == "button":
		case fl.IsText() && !queryBox(fl) && !fl.Disabled && !fl.ReadOnly:
			code++
		default:
			return false
		}
	}
	return code > 0
}

// minKeywordLength is the longest maxlength of a box that cannot be a keyword box.
const minKeywordLength = 4

func argmax(p []float64) int {
	best := 0
	for i, v := range p {
		if v > p[best] {
			best = i
		}
	}
	return best
}

// keywordCapable reports whether a field can be a keyword box: a query box (queryBox)
// that admits query words: a box of at most minKeywordLength characters holds a count,
// a year or a code (Fossil's "Max" rows), not a query.
func keywordCapable(fl Field) bool {
	return queryBox(fl) && (fl.MaxLength == 0 || fl.MaxLength > minKeywordLength)
}

// queryBox reports whether a field is a free-text control, enabled, that its
// identifiers and label do not name a code box (SQL, a script, a regular expression: a
// query language is not query words).
func queryBox(fl Field) bool {
	switch fl.Type {
	case "", "text", "search", "textarea", "email", "url", "tel", "number":
		if fl.Disabled || fl.ReadOnly {
			return false
		}
		return !slices.Contains(purposes(fl.Name+" "+fl.ID+" "+fl.CSSClass, true), "code") &&
			!slices.Contains(purposes(fl.Label+" "+fl.Placeholder+" "+fl.Title, false), "code")
	}
	return false
}

// setRoles sets the role of every field of f (whose class is set) and its keyword
// boxes.
func (c *Classifier) setRoles(f *Form) {
	f.KeywordFields = []string{}
	kw := indexOf(c.field.labels, RoleKeyword)
	search := f.Class == ClassSearch
	bestKW, bestP := -1, 0.0
	anyKW := false
	lay := newLayout(f)
	for i := range f.Fields {
		fl := &f.Fields[i]
		switch {
		case fl.Type == "hidden":
			fl.Role = RoleHidden
			continue
		case fl.Type == "password":
			fl.Role = RolePassword
			continue
		}
		p := c.field.probs(fieldFeatures(f, lay, i, f.Class))
		capable := search && keywordCapable(*fl)
		if kw >= 0 && !capable {
			p[kw] = 0
		}
		r := argmax(p)
		fl.Role = c.field.labels[r]
		if fl.Role == RoleKeyword {
			anyKW = true
		}
		if capable && kw >= 0 && p[kw] > bestP {
			bestKW, bestP = i, p[kw]
		}
	}
	if search && !anyKW && bestKW >= 0 && bestP >= c.keywordMin {
		f.Fields[bestKW].Role = RoleKeyword
	}
	seen := map[string]bool{}
	for _, fl := range f.Fields {
		if fl.Role == RoleKeyword && fl.Name != "" && !seen[fl.Name] {
			seen[fl.Name] = true
			f.KeywordFields = append(f.KeywordFields, fl.Name)
		}
	}
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// BestSearchForm returns the index of the form of forms that trawl should probe, and
// false when no form is classified as search. Among the search forms it prefers
// <form> elements over formless boxes and forms with more inputs (an advanced search
// form over the site-wide box in the header); the confidence breaks near-ties:
// rank = confidence + 0.1 × min(inputs, 5) + 0.2 for a <form> element.
func BestSearchForm(forms []Form) (int, bool) {
	best, bestRank := -1, 0.0
	for i, f := range forms {
		if f.Class != ClassSearch {
			continue
		}
		inputs := 0
		for _, fl := range f.Fields {
			if fl.Type != "hidden" && !fl.Submit && fl.Tag != "button" {
				inputs++
			}
		}
		rank := f.Confidence + 0.1*float64(min(inputs, 5))
		if f.Index != nil {
			rank += 0.2
		}
		if best < 0 || rank > bestRank {
			best, bestRank = i, rank
		}
	}
	return best, best >= 0
}

// The model file: JSON, weights rounded to 4 decimals, features whose weights all
// round to zero left out.

type modelFile struct {
	FeatureVersion int         `json:"feature_version"`
	About          string      `json:"about"`
	KeywordMin     float64     `json:"keyword_min"`
	Form           linearModel `json:"form"`
	Field          linearModel `json:"field"`
}

type linearModel struct {
	Labels  []string             `json:"labels"`
	Bias    []float64            `json:"bias"`
	Weights map[string][]float64 `json:"weights"`
}

// ErrModelVersion is returned by ReadClassifier for a model made by another version
// of the feature extraction.
var ErrModelVersion = errors.New("probe: form model was trained with other features (run go generate ./probe)")

// ReadClassifier reads a classifier written by WriteJSON.
func ReadClassifier(r io.Reader) (*Classifier, error) {
	var m modelFile
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("probe: read form model: %w", err)
	}
	if m.FeatureVersion != featureVersion {
		return nil, fmt.Errorf("%w: model version %d, code version %d", ErrModelVersion, m.FeatureVersion, featureVersion)
	}
	c := &Classifier{keywordMin: m.KeywordMin, about: m.About}
	for _, x := range []struct {
		in   linearModel
		out  *linear
		name string
		want []string
	}{
		{m.Form, &c.form, "form", classNames()},
		{m.Field, &c.field, "field", Roles},
	} {
		if len(x.in.Labels) < 2 || len(x.in.Bias) != len(x.in.Labels) {
			return nil, fmt.Errorf("probe: form model: %s model has %d labels and %d biases", x.name, len(x.in.Labels), len(x.in.Bias))
		}
		for _, l := range x.in.Labels {
			if indexOf(x.want, l) < 0 {
				return nil, fmt.Errorf("probe: form model: unknown %s label %q", x.name, l)
			}
		}
		for f, w := range x.in.Weights {
			if len(w) != len(x.in.Labels) {
				return nil, fmt.Errorf("probe: form model: %s feature %q has %d weights for %d labels", x.name, f, len(w), len(x.in.Labels))
			}
		}
		*x.out = linear{labels: x.in.Labels, bias: x.in.Bias, weights: x.in.Weights}
	}
	return c, nil
}

func classNames() []string {
	out := make([]string, len(Classes))
	for i, c := range Classes {
		out[i] = string(c)
	}
	return out
}

// WriteJSON writes the classifier as JSON (keys sorted, so the output is reproducible).
func (c *Classifier) WriteJSON(w io.Writer) error {
	m := modelFile{
		FeatureVersion: featureVersion,
		About:          c.about,
		KeywordMin:     round4(c.keywordMin),
		Form:           c.form.export(),
		Field:          c.field.export(),
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(m)
}

func (l *linear) export() linearModel {
	out := linearModel{Labels: l.labels, Bias: make([]float64, len(l.bias)), Weights: map[string][]float64{}}
	for i, b := range l.bias {
		out.Bias[i] = round4(b)
	}
	for f, w := range l.weights {
		r := make([]float64, len(w))
		keep := false
		for i, v := range w {
			r[i] = round4(v)
			keep = keep || r[i] != 0
		}
		if keep {
			out.Weights[f] = r
		}
	}
	return out
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// About describes how the classifier was trained.
func (c *Classifier) About() string { return c.about }
