package probe

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/testsites"
)

// staticForm fetches a test site's form page over plain HTTP and returns its search
// form (ParseForms + Classify), as Discover would without scripts. See truthForm.
func staticForm(t *testing.T, s *testsites.Site, base string) Form {
	t.Helper()
	resp, err := http.Get(base + s.FormPath)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	forms, err := ParseForms(doc, base+s.FormPath)
	if err != nil {
		t.Fatal(err)
	}
	for i := range forms {
		Classify(&forms[i])
	}
	return truthForm(t, s, forms)
}

// truthForm returns the site's search form among the classified forms of its page. The
// tests of the prober test planning and submission, not classification (the classifier
// has its own evaluation): where the classifier disagrees with the site's truth, the
// test logs it and takes the truth's class and keyword box.
func truthForm(t testing.TB, s *testsites.Site, forms []Form) Form {
	t.Helper()
	kw := keywordOf(s)
	if i, ok := BestSearchForm(forms); ok && slices.Contains(forms[i].KeywordFields, kw) {
		return forms[i]
	}
	for _, f := range forms {
		if _, ok := fieldByName(f, kw); ok {
			t.Logf("classifier disagrees with the %s site's truth: its search form %s is classified %s (%.2f) with keyword fields %v; the truth is search with keyword box %q",
				s.Name, f.XPath, f.Class, f.Confidence, f.KeywordFields, kw)
			f.Class, f.KeywordFields = ClassSearch, []string{kw}
			return f
		}
	}
	t.Fatalf("%s: no form with the keyword field %q among %d forms", s.Name, kw, len(forms))
	return Form{}
}

func TestAgnosticPlanOnTestSites(t *testing.T) {
	for _, s := range testsites.All() {
		t.Run(s.Name, func(t *testing.T) {
			srv := s.NewServer()
			defer srv.Close()
			f := staticForm(t, s, srv.URL)
			o := DefaultPlanOptions()
			o.Seed = 7
			plan := AgnosticPlan(f, o)
			if len(plan) == 0 || len(plan) > o.MaxProbes {
				t.Fatalf("plan has %d probes", len(plan))
			}
			kinds := map[string]int{}
			for _, a := range plan {
				kinds[a.Kind]++
				for name, v := range a.Values {
					fd, ok := fieldByName(f, name)
					if !ok {
						t.Fatalf("%s probe sets unknown field %q", a.Kind, name)
					}
					if err := CheckValue(fd, v); err != nil {
						t.Errorf("%s probe: %v", a.Kind, err)
					}
					if fd.Type == "hidden" || fd.Submit {
						t.Errorf("%s probe sets %s field %q", a.Kind, fd.Type, name)
					}
				}
			}
			if plan[0].Kind != KindNonsense {
				t.Errorf("the first probe is %s, want the nonsense word", plan[0].Kind)
			}
			for _, k := range []string{KindStopword, KindLetter} {
				if kinds[k] == 0 {
					t.Errorf("no %s probe (kinds %v)", k, kinds)
				}
			}
			choices := 0
			for _, fl := range s.Fields {
				if fl.Match != testsites.MatchNone && (fl.Type == "select" || fl.Type == "radio" || fl.Type == "checkbox") {
					choices++
				}
			}
			if choices > 0 && kinds[KindOption] == 0 {
				t.Errorf("the form has %d filtering choice fields but the plan no option probe (kinds %v)", choices, kinds)
			}
			if choices > 1 && kinds[KindCombo] == 0 && len(plan) < o.MaxProbes {
				t.Errorf("no combination probe (kinds %v)", kinds)
			}
			for _, a := range plan {
				for name := range a.Values {
					if fl, ok := s.Field(name); ok && fl.Match == testsites.MatchNone && a.Kind == KindOption {
						t.Errorf("option probe varies presentation field %q", name)
					}
				}
			}
			// A required keyword box is never left empty.
			for _, fd := range f.Fields {
				if fd.Required && fd.Type != "hidden" {
					for _, a := range plan {
						if a.Values[fd.Name] == "" {
							t.Errorf("%s probe leaves required field %q empty", a.Kind, fd.Name)
						}
					}
					if kinds[KindEmpty] != 0 {
						t.Error("empty probe planned for a form with a required field")
					}
				}
			}
		})
	}
}

func fieldByName(f Form, name string) (Field, bool) {
	for _, fd := range f.Fields {
		if fd.Name == name {
			return fd, true
		}
	}
	return Field{}, false
}

func TestAgnosticPlanBudgetInterleaves(t *testing.T) {
	s, _ := testsites.ByName("advanced")
	srv := s.NewServer()
	defer srv.Close()
	f := staticForm(t, s, srv.URL)
	o := DefaultPlanOptions()
	o.MaxProbes = 8
	o.Seed = 1
	plan := AgnosticPlan(f, o)
	if len(plan) != 8 {
		t.Fatalf("plan has %d probes, want 8", len(plan))
	}
	kinds := map[string]bool{}
	for _, a := range plan {
		kinds[a.Kind] = true
	}
	for _, k := range []string{KindNonsense, KindStopword, KindLetter, KindOption} {
		if !kinds[k] {
			t.Errorf("8 probes have no %s probe: %v", k, plan)
		}
	}
	again := AgnosticPlan(f, o)
	if !slices.EqualFunc(plan, again, func(a, b Assignment) bool { return assignmentKey(a) == assignmentKey(b) && a.Kind == b.Kind }) {
		t.Error("the same seed gave another plan")
	}
}

func TestExplicitPlan(t *testing.T) {
	s, _ := testsites.ByName("advanced")
	srv := s.NewServer()
	defer srv.Close()
	f := staticForm(t, s, srv.URL)
	tests := []struct {
		name    string
		in      map[string][]string
		want    int
		wantErr string
	}{
		{"two fields", map[string][]string{"author": {"Tolkien", "Austen"}, "language": {"English"}}, 3, ""},
		{"unknown field", map[string][]string{"nope": {"x"}}, 0, `field "nope" is not in the form`},
		{"not an option", map[string][]string{"language": {"Klingon"}}, 0, "is not one of its options"},
		{"pattern", map[string][]string{"isbn": {"12"}}, 0, "does not match the pattern"},
		{"maxlength", map[string][]string{"isbn": {"12345678901"}}, 0, "longer than maxlength 10"},
		{"checkbox values", map[string][]string{"format": {"Ebook" + MultiSep + "Hardcover"}}, 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan, err := ExplicitPlan(f, tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(plan) != tc.want {
				t.Fatalf("plan = %v, want %d probes", plan, tc.want)
			}
			for _, a := range plan {
				if a.Kind != KindPlan {
					t.Errorf("kind %q", a.Kind)
				}
			}
		})
	}
}

func TestNonsenseWord(t *testing.T) {
	a, b := NonsenseWord(3), NonsenseWord(3)
	if a != b {
		t.Errorf("seeded words differ: %q %q", a, b)
	}
	seen := map[string]bool{}
	for range 50 {
		w := NonsenseWord(0)
		if len(w) < 10 || len(w) > 14 || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			t.Fatalf("bad nonsense word %q", w)
		}
		seen[w] = true
	}
	if len(seen) < 45 {
		t.Errorf("only %d distinct random words of 50", len(seen))
	}
}

func TestCheckForm(t *testing.T) {
	idx := 0
	base := Form{Index: &idx, XPath: "/html[1]/body[1]/form[1]", Class: ClassSearch, Confidence: 0.9, Method: "GET",
		Action: "http://h.test/search", PageURL: "http://h.test/", Fields: []Field{{Name: "q", Type: "search"}}}
	o := DefaultOptions()
	forced := o
	forced.ForceForm = "0"
	post := o
	post.AllowPOST = true
	mod := func(f func(*Form)) Form {
		c := base
		c.Fields = slices.Clone(base.Fields)
		f(&c)
		return c
	}
	tests := []struct {
		name    string
		f       Form
		o       Options
		wantErr error
		msg     string
	}{
		{"search form", base, o, nil, ""},
		{"login", mod(func(f *Form) { f.Class = ClassLogin }), o, ErrNotSearchForm, `classified "login"`},
		{"forced login", mod(func(f *Form) { f.Class = ClassLogin }), forced, nil, ""},
		{"password field", mod(func(f *Form) { f.Fields = append(f.Fields, Field{Name: "pw", Type: "password"}) }), o, ErrNotSearchForm, "password field"},
		{"side-effect action", mod(func(f *Form) { f.Action = "http://h.test/cart/add" }), o, ErrNotSearchForm, "side effects"},
		{"POST", mod(func(f *Form) { f.Method = "POST" }), o, ErrRefused, "--allow-post"},
		{"POST allowed", mod(func(f *Form) { f.Method = "POST" }), post, nil, ""},
		{"other origin", mod(func(f *Form) { f.Action = "http://evil.test/search" }), o, ErrRefused, "outside the origin"},
		{"other origin even forced", mod(func(f *Form) { f.Action = "https://h.test/search" }), forced, ErrRefused, "outside the origin"},
		{"mailto action", mod(func(f *Form) { f.Action = "mailto:a@h.test" }), o, ErrRefused, "not an http(s) URL"},
		{"file page", mod(func(f *Form) { f.PageURL = "file:///etc/passwd" }), o, ErrRefused, "not an http(s) URL"},
		{"relative action", mod(func(f *Form) { f.Action = "/s" }), o, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckForm(tc.f, tc.o)
			if tc.wantErr == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !errorsIs(err, tc.wantErr) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want %v with %q", err, tc.wantErr, tc.msg)
			}
			if !errorsIs(err, ErrRefused) {
				t.Errorf("%v does not wrap ErrRefused", err)
			}
		})
	}
}

func TestHarvester(t *testing.T) {
	page := func(words string) []Page {
		return []Page{{HTML: "<html><head><title>Shop</title><script>var secret = 1;</script></head><body><nav>Home About</nav><p>" +
			words + "</p><select><option>Paperback</option></select></body></html>"}}
	}
	h := newHarvester()
	h.use("the")
	for _, words := range []string{"dragon tattoo girl", "girl train", "dragon fire", "lonely planet", "moon", "sun"} {
		h.add(page(words))
	}
	got := h.next(10)
	want := []string{"dragon", "girl"} // in 2 of 6 probes; shop, home, about: template; secret, paperback: not text
	if !slices.Equal(got, want) {
		t.Errorf("next = %v, want %v", got, want)
	}
	h.use("dragon")
	if got := h.next(10); !slices.Equal(got, []string{"girl"}) {
		t.Errorf("after use: %v", got)
	}
	if got := newHarvester().next(5); got != nil {
		t.Errorf("empty harvester: %v", got)
	}
}

func TestCheckValueTypes(t *testing.T) {
	tests := []struct {
		fd   Field
		v    string
		okay bool
	}{
		{Field{Name: "rows", Type: "hidden", Value: "25"}, "25", true},
		{Field{Name: "rows", Type: "hidden", Value: "25"}, "the", false},
		{Field{Name: "rows", Type: "hidden", Value: "25"}, "50", false},
		{Field{Name: "n", Type: "number"}, "the", false},
		{Field{Name: "n", Type: "number", Min: "1"}, "3", true},
		{Field{Name: "r", Type: "range"}, "a", false},
		{Field{Name: "d", Type: "date"}, "2024-02-29", true},
		{Field{Name: "d", Type: "date"}, "the", false},
		{Field{Name: "m", Type: "month"}, "2024-02", true},
		{Field{Name: "w", Type: "week"}, "2024-W09", true},
		{Field{Name: "t", Type: "time"}, "09:30", true},
		{Field{Name: "t", Type: "time"}, "a", false},
		{Field{Name: "dt", Type: "datetime-local"}, "2024-02-29T09:30", true},
		{Field{Name: "c", Type: "color"}, "#a0b1c2", true},
		{Field{Name: "c", Type: "color"}, "red", false},
		{Field{Name: "q", Type: "text"}, "the", true},
	}
	for _, tc := range tests {
		err := CheckValue(tc.fd, tc.v)
		if (err == nil) != tc.okay {
			t.Errorf("CheckValue(%s %s, %q) = %v, want ok %v", tc.fd.Type, tc.fd.Name, tc.v, err, tc.okay)
		}
	}
	f := Form{Fields: []Field{{Name: "q", Type: "text"}, {Name: "rows", Type: "hidden", Value: "25"}}}
	if _, err := fillSpecs(f, map[string]string{"q": "a", "rows": "the"}); err == nil || !strings.Contains(err.Error(), `"rows"`) {
		t.Errorf("fillSpecs with a word for a hidden field: %v", err)
	}
}

// TestPlanWordsOnlyInQueryBoxes: the nonsense word and the letters go into the boxes
// that take query words, not into a row-count box of four characters or an SQL box
// (Fossil's timeline typed "s" into its "Max" rows box and got its form page back),
// unless the form has no other text box.
func TestPlanWordsOnlyInQueryBoxes(t *testing.T) {
	form := Form{Fields: []Field{
		{Name: "q", Type: "text", Label: "Search"},
		{Name: "n", Type: "text", MaxLength: 4, Label: "Max"},
		{Name: "where", Type: "textarea", Label: "SQL WHERE clause"},
		{Name: "go", Type: "submit", Submit: true},
	}}
	plan := AgnosticPlan(form, DefaultPlanOptions())
	for _, a := range plan {
		if a.Kind != KindNonsense && a.Kind != KindLetter {
			continue
		}
		for name := range a.Values {
			if name != "q" {
				t.Errorf("%s probe types into %q: %v", a.Kind, name, a.Values)
			}
		}
	}
	only := Form{Fields: []Field{{Name: "n", Type: "text", MaxLength: 4}}}
	letters := 0
	for _, a := range AgnosticPlan(only, DefaultPlanOptions()) {
		if a.Kind == KindLetter {
			letters++
		}
	}
	if letters == 0 {
		t.Error("a form whose only box is short gets no letter probe; want the old behaviour (every text box) when no box takes query words")
	}
}
