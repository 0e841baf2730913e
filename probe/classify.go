package probe

import (
	"math"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

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

// Classify sets f.Class, f.Confidence, f.KeywordFields and the Role of every field.
// It reads only f itself, so a form read back from form.json can be classified again.
func Classify(f *Form) {
	scores := ruleScores(f)
	best, conf := softmaxBest(scores)
	f.Class = Classes[best]
	f.Confidence = conf
	setRoles(f)
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

// softmaxBest returns the index of the highest score and its softmax probability.
func softmaxBest(scores []float64) (int, float64) {
	best := 0
	for i, s := range scores {
		if s > scores[best] {
			best = i
		}
	}
	sum := 0.0
	for _, s := range scores {
		sum += math.Exp(s - scores[best])
	}
	return best, 1 / sum
}

// formCounts counts the visible controls of a form by kind.
type formCounts struct {
	text, password, email, textarea, selects, checkbox, radio, file, submit, visible int
}

func countFields(f *Form) formCounts {
	var c formCounts
	for _, fl := range f.Fields {
		switch fl.Type {
		case "hidden":
			continue
		case "text", "search", "tel", "url", "number":
			c.text++
		case "password":
			c.password++
		case "email":
			c.email++
		case "textarea":
			c.textarea++
		case "select", "select-multiple":
			c.selects++
		case "checkbox":
			c.checkbox++
		case "radio":
			c.radio++
		case "file":
			c.file++
		}
		if fl.Submit {
			c.submit++
		}
		c.visible++
	}
	return c
}

// Words that point to each class, matched inside the folded text of a form.
var classWords = map[Class][]string{
	ClassLogin: {"login", "log in", "signin", "sign in", "log on", "logon", "anmelden", "connexion",
		"se connecter", "iniciar sesion", "entrar", "accedi", "inloggen", "войти", "вход", "登录", "ログイン"},
	ClassRegistration: {"register", "registration", "sign up", "signup", "create account",
		"create an account", "join", "registrieren", "inscription", "registrarse", "registrati",
		"регистрация", "注册"},
	ClassPasswordRecovery: {"forgot", "forgotten", "reset password", "recover", "lost password",
		"passwort vergessen", "mot de passe oublie", "remind"},
	ClassContact: {"contact", "message", "comment", "feedback", "enquiry", "inquiry", "kontakt",
		"nachricht", "reply", "review"},
	ClassMailingList: {"newsletter", "subscribe", "mailing list", "sign up for", "updates",
		"abonnieren", "s'abonner", "suscribir"},
	ClassOrder: {"cart", "basket", "add to bag", "buy", "checkout", "quantity", "qty", "warenkorb",
		"panier", "carrito", "order"},
}

// ruleScores scores a form for each class of Classes with hand-set weights.
func ruleScores(f *Form) []float64 {
	c := countFields(f)
	var attrs, labels []string
	attrs = append(attrs, f.ID, f.Name, f.CSSClass, f.Action)
	for _, fl := range f.Fields {
		if fl.Type == "hidden" {
			continue
		}
		attrs = append(attrs, fl.Name, fl.ID, fl.CSSClass)
		labels = append(labels, fl.Label, fl.Placeholder, fl.Title)
	}
	attrText := textnorm.Fold(strings.Join(attrs, " "))
	labelText := textnorm.Fold(strings.Join(labels, " ") + " " + f.Text + " " + strings.Join(f.Links, " "))
	has := func(cl Class, text string) bool {
		for _, w := range classWords[cl] {
			if strings.Contains(text, w) {
				return true
			}
		}
		return false
	}
	s := make([]float64, len(Classes))
	// search
	search := 0.0
	if f.Landmark == "search" {
		search += 3
	}
	for _, fl := range f.Fields {
		if fl.Type == "search" {
			search += 3
			break
		}
	}
	if hasSearchWord(attrText) {
		search += 2.5
	}
	if hasSearchWord(labelText) {
		search += 2
	}
	if c.text+c.selects+c.radio >= 1 && c.password == 0 && c.textarea == 0 && c.email == 0 {
		search += 1
	}
	if c.password > 0 {
		search -= 5
	}
	if c.textarea > 0 || c.file > 0 {
		search -= 3
	}
	if c.email > 0 {
		search -= 2
	}
	if c.text > 4 {
		search -= 2
	}
	if f.Method == "POST" {
		search -= 0.5
	}
	s[0] = search
	// login
	login := 0.0
	if c.password == 1 && c.text+c.email <= 2 {
		login += 4
	}
	if has(ClassLogin, attrText) || has(ClassLogin, labelText) {
		login += 1.5
	}
	if c.password == 0 {
		login -= 4
	}
	s[1] = login
	// registration
	reg := 0.0
	if c.password >= 2 {
		reg += 4
	}
	if c.password >= 1 && c.text+c.email >= 3 {
		reg += 2.5
	}
	if has(ClassRegistration, attrText) || has(ClassRegistration, labelText) {
		reg += 1.5
	}
	if c.password == 0 {
		reg -= 2
	}
	s[2] = reg
	// password recovery
	rec := 0.0
	if has(ClassPasswordRecovery, attrText) || has(ClassPasswordRecovery, labelText) {
		rec += 3
	}
	if c.password == 0 && c.text+c.email == 1 {
		rec += 0.5
	} else {
		rec -= 2
	}
	s[3] = rec
	// contact
	con := 0.0
	if c.textarea > 0 {
		con += 3
	}
	if has(ClassContact, attrText) || has(ClassContact, labelText) {
		con += 1.5
	}
	if c.password > 0 {
		con -= 3
	}
	s[4] = con
	// mailing list
	ml := 0.0
	if has(ClassMailingList, attrText) || has(ClassMailingList, labelText) {
		ml += 3
	}
	if c.email+c.text >= 1 && c.email+c.text <= 3 && c.password == 0 && c.textarea == 0 {
		ml += 0.5
	}
	if c.email == 0 && !strings.Contains(attrText, "mail") {
		ml -= 1.5
	}
	s[5] = ml
	// order
	ord := 0.0
	if has(ClassOrder, attrText) || has(ClassOrder, labelText) {
		ord += 2.5
	}
	if c.password > 0 || c.textarea > 0 {
		ord -= 2
	}
	s[6] = ord
	// other: the baseline every class must beat
	s[7] = 1
	return s
}

// setRoles sets Field.Role from types and the form class, and the keyword boxes of a
// search form.
func setRoles(f *Form) {
	f.KeywordFields = []string{}
	kw := -1
	if f.Class == ClassSearch {
		kw = keywordBox(f)
	}
	for i := range f.Fields {
		fl := &f.Fields[i]
		switch {
		case i == kw:
			fl.Role = RoleKeyword
		case fl.Type == "hidden":
			fl.Role = RoleHidden
		case fl.Submit:
			fl.Role = RoleSubmit
		case fl.Type == "password":
			fl.Role = RolePassword
		case fl.Type == "email" || fl.Autocomplete == "email":
			fl.Role = RoleEmail
		case fl.Autocomplete == "username":
			fl.Role = RoleUsername
		case f.Class == ClassSearch && (fl.Tag == "select" || fl.Type == "radio"):
			fl.Role = RoleCategory
		default:
			fl.Role = RoleOther
		}
	}
	if kw >= 0 && f.Fields[kw].Name != "" {
		f.KeywordFields = append(f.KeywordFields, f.Fields[kw].Name)
	}
}

// keywordBox returns the index of the keyword box of a search form, or -1: the text
// box whose markup says search, else the first visible text box.
func keywordBox(f *Form) int {
	var boxes []int
	for i, fl := range f.Fields {
		if (fl.Type == "text" || fl.Type == "search") && !fl.Disabled && !fl.ReadOnly {
			boxes = append(boxes, i)
		}
	}
	if len(boxes) == 0 {
		return -1
	}
	if i := slices.IndexFunc(boxes, func(i int) bool { return f.Fields[i].Type == "search" }); i >= 0 {
		return boxes[i]
	}
	for _, i := range boxes {
		fl := f.Fields[i]
		if hasSearchWord(fl.Name, fl.ID, fl.Label, fl.Placeholder, fl.CSSClass) {
			return i
		}
	}
	return boxes[0]
}
