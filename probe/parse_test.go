package probe

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding/charmap"

	"github.com/trawl-dev/trawl/internal/testutil"
)

func parseString(t *testing.T, page, pageURL string) []Form {
	t.Helper()
	doc, err := ReadHTML(strings.NewReader(page), "")
	if err != nil {
		t.Fatal(err)
	}
	forms, err := ParseForms(doc, pageURL)
	if err != nil {
		t.Fatal(err)
	}
	return forms
}

func readForms(t *testing.T, file, pageURL string) []Form {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "forms", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := ReadHTML(f, "")
	if err != nil {
		t.Fatal(err)
	}
	forms, err := ParseForms(doc, pageURL)
	if err != nil {
		t.Fatal(err)
	}
	return forms
}

// TestParseFormsGolden checks the whole input schema of a page that uses every kind of
// control and label; testdata/forms/schema.json is the reviewed output.
func TestParseFormsGolden(t *testing.T) {
	forms := readForms(t, "schema.html", "https://lib.example/home/index.html")
	got, err := json.MarshalIndent(forms, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	testutil.Golden(t, "forms/schema.json", append(got, '\n'))
}

func TestParseFormsSchema(t *testing.T) {
	forms := readForms(t, "schema.html", "https://lib.example/home/index.html")
	if len(forms) != 5 {
		t.Fatalf("got %d forms, want 4 <form>s and 1 formless search box", len(forms))
	}
	field := func(f Form, name string) Field {
		t.Helper()
		for _, fl := range f.Fields {
			if fl.Name == name {
				return fl
			}
		}
		t.Fatalf("form %s has no field %q", f.XPath, name)
		return Field{}
	}
	login, search, cart, letter, formless := forms[0], forms[1], forms[2], forms[3], forms[4]

	t.Run("form attributes", func(t *testing.T) {
		tests := []struct {
			name                         string
			f                            Form
			index                        int
			xpath, method, action, enctp string
		}{
			{"login", login, 0, "/html[1]/body[1]/nav[1]/form[1]", "POST", "https://lib.example/login", "application/x-www-form-urlencoded"},
			{"search", search, 1, "/html[1]/body[1]/div[1]/form[1]", "GET", "https://lib.example/catalogue/results.php?lang=en", "multipart/form-data"},
			{"cart in table", cart, 2, "/html[1]/body[1]/table[1]/form[1]", "POST", "https://other.example/cart", "application/x-www-form-urlencoded"},
			{"dialog", letter, 3, "/html[1]/body[1]/form[1]", "DIALOG", "https://news.example/subscribe", "application/x-www-form-urlencoded"},
		}
		for _, tc := range tests {
			f := tc.f
			if f.Index == nil || *f.Index != tc.index || f.XPath != tc.xpath || f.Method != tc.method ||
				f.Action != tc.action || f.Enctype != tc.enctp {
				t.Errorf("%s: index %v xpath %q method %q action %q enctype %q", tc.name, f.Index, f.XPath, f.Method, f.Action, f.Enctype)
			}
		}
		if formless.Index != nil || formless.XPath != "/html[1]/body[1]/div[2]" || formless.Action != "" {
			t.Errorf("formless: index %v xpath %q action %q", formless.Index, formless.XPath, formless.Action)
		}
	})

	t.Run("labels", func(t *testing.T) {
		tests := []struct {
			f            Form
			name         string
			label, order string
		}{
			{login, "user", "User name", "for"},
			{login, "pw", "Password", "wrap"},
			{login, "remember", "Remember me", "text-after"},
			{search, "q", "Words", "text"},
			{search, "year", "Year of publication", "aria-label"},
			{search, "field", "Field", "aria-labelledby"},
			{search, "lang", "Languages", "title"},
			{search, "fmt", "Format", "legend"},
			{search, "topic", "Topics", "text"},
			{search, "isbn", "ISBN", "placeholder"},
			{search, "notes", "Notes", "title"},
			{cart, "qty", "Quantity", "text"},
			{cart, "add", "Add to cart", "value"},
		}
		for _, tc := range tests {
			fl := field(tc.f, tc.name)
			if fl.Label != tc.label || fl.LabelSource != tc.order {
				t.Errorf("%s: label %q (%s), want %q (%s)", tc.name, fl.Label, fl.LabelSource, tc.label, tc.order)
			}
		}
	})

	t.Run("options and defaults", func(t *testing.T) {
		sel := field(search, "field")
		if sel.Type != "select" || sel.Value != "au" || len(sel.Options) != 4 || !sel.Options[2].Disabled ||
			sel.Options[3].Value != "Title" || !sel.Options[1].Selected || sel.Options[0].Selected {
			t.Errorf("select: %+v", sel)
		}
		multi := field(search, "lang")
		if multi.Type != "select-multiple" || !multi.Options[0].Selected || !multi.Options[1].Selected ||
			multi.Options[2].Text != "German" || multi.Options[2].Value != "de" {
			t.Errorf("multiple select: %+v", multi)
		}
		radio := field(search, "fmt")
		if radio.Type != "radio" || len(radio.Options) != 3 || radio.Value != "ebook" || !radio.Checked ||
			radio.Options[0].Text != "Book" || radio.Options[2].Text != "Audio" {
			t.Errorf("radio group: %+v", radio)
		}
		boxes := field(search, "topic")
		if boxes.Type != "checkbox" || len(boxes.Options) != 2 || boxes.Value != "poetry" ||
			boxes.Options[0].Text != "Fiction" || !boxes.Options[1].Selected {
			t.Errorf("checkbox group: %+v", boxes)
		}
		single := field(login, "remember")
		if len(single.Options) != 0 || single.Value != "1" || !single.Checked {
			t.Errorf("single checkbox: %+v", single)
		}
		if q := field(search, "q"); q.Value != "dickens" || q.MaxLength != 80 || q.Type != "text" {
			t.Errorf("q: %+v", q)
		}
		if y := field(search, "year"); y.Min != "1800" || y.Max != "2025" || y.Step != "1" || y.Type != "number" {
			t.Errorf("year: %+v", y)
		}
		if isbn := field(search, "isbn"); !isbn.Disabled || isbn.Pattern != "[0-9X-]+" {
			t.Errorf("isbn: %+v", isbn)
		}
		if notes := field(search, "notes"); notes.Value != "first line" || notes.Tag != "textarea" {
			t.Errorf("notes: %+v", notes)
		}
		if from := field(search, "from"); !from.ReadOnly || from.Type != "date" {
			t.Errorf("from: %+v", from)
		}
		if pw := field(login, "pw"); pw.MinLength != 8 || pw.Type != "password" {
			t.Errorf("pw: %+v", pw)
		}
		if u := field(login, "user"); !u.Required || u.Autocomplete != "username" {
			t.Errorf("user: %+v", u)
		}
	})

	t.Run("submit controls", func(t *testing.T) {
		var submits, resets []string
		for _, fl := range search.Fields {
			if fl.Submit {
				submits = append(submits, fl.Label)
			}
			if fl.Type == "reset" {
				resets = append(resets, fl.Label)
			}
		}
		if strings.Join(submits, "|") != "Search|Go" || strings.Join(resets, "|") != "Clear" {
			t.Errorf("submits %q resets %q", submits, resets)
		}
		if b := login.Fields[len(login.Fields)-1]; b.Tag != "button" || b.Type != "submit" || !b.Submit || b.Label != "Log in" {
			t.Errorf("button: %+v", b)
		}
	})

	t.Run("ownership", func(t *testing.T) {
		if len(letter.Fields) != 2 || letter.Fields[0].Name != "news" {
			t.Errorf("form attribute: fields %+v", letter.Fields)
		}
		if len(cart.Fields) != 2 || cart.Fields[0].Name != "qty" {
			t.Errorf("form emptied by a table: fields %+v", cart.Fields)
		}
		if len(formless.Fields) != 2 || formless.Fields[0].ID != "site-q" || formless.Fields[1].Tag != "button" {
			t.Errorf("formless: fields %+v", formless.Fields)
		}
		for _, f := range forms {
			for _, fl := range f.Fields {
				if fl.Name == "inert" || fl.Name == "not-a-form" || fl.Name == "city" {
					t.Errorf("field %q should not be in any form", fl.Name)
				}
			}
		}
	})

	t.Run("context", func(t *testing.T) {
		if search.TextBefore != "Search the catalogue" || !strings.HasPrefix(search.Text, "Search the catalogue Words:") {
			t.Errorf("search text before %q text %q", search.TextBefore, search.Text)
		}
		if search.Landmark != "search" || login.Landmark != "navigation" || search.Name != "find" {
			t.Errorf("landmarks %q %q name %q", search.Landmark, login.Landmark, search.Name)
		}
		if len(login.Links) != 1 || login.Links[0] != "Forgot your password?" || login.ID != "login-form" || login.CSSClass != "login small" {
			t.Errorf("login links %q id %q class %q", login.Links, login.ID, login.CSSClass)
		}
		if x := field(search, "q").XPath; x != "/html[1]/body[1]/div[1]/form[1]/input[1]" {
			t.Errorf("q xpath %q", x)
		}
	})
}

func TestParseFormsBadInput(t *testing.T) {
	tests := []struct {
		name, page string
		forms      int
	}{
		{"empty", "", 0},
		{"no forms", "<p>Hello</p>", 0},
		{"unclosed everything", "<form action=x><div><input name=a><select name=s><option>1<option>2", 1},
		{"garbage", "<<<>>><form<<input name=\x00a>>></fo", 0},
		{"stray end tags", "</form></form><input name=q></form><button>search</button>", 1},
		{"nested forms collapse", "<form><input name=a><form><input name=b></form></form>", 1},
		{"binary", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00", 0},
		{"select without options", "<form><select name=s></select></form>", 1},
		{"huge attribute", "<form><input name=q value=" + strings.Repeat("x", 1<<20) + "></form>", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			forms := parseString(t, tc.page, "http://example.com/")
			if len(forms) != tc.forms {
				t.Errorf("got %d forms, want %d: %+v", len(forms), tc.forms, forms)
			}
			for i := range forms {
				Classify(&forms[i])
			}
		})
	}
	if _, err := ParseForms(nil, ""); err == nil {
		t.Error("ParseForms(nil) returned no error")
	}
	doc, _ := html.Parse(strings.NewReader("<form></form>"))
	if _, err := ParseForms(doc, "http://[::1"); err == nil || !strings.Contains(err.Error(), "http://[::1") {
		t.Errorf("bad page URL: err = %v, want one naming the URL", err)
	}
	if forms, err := ParseForms(doc, ""); err != nil || len(forms) != 1 || forms[0].Action != "" {
		t.Errorf("no page URL: %v %+v", err, forms)
	}
}

func TestReadHTMLEncodings(t *testing.T) {
	cyr, err := charmap.Windows1251.NewEncoder().String("Поиск")
	if err != nil {
		t.Fatal(err)
	}
	latin, err := charmap.ISO8859_1.NewEncoder().String("Réservé")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, `<form><label for=a>Zoekterm</label><input id=a name=q></form>`)
	zw.Close()
	tests := []struct {
		name, page, contentType, label string
	}{
		{"meta charset windows-1251", `<meta charset="windows-1251"><form><label for=a>` + cyr + `</label><input id=a name=q></form>`, "", "Поиск"},
		{"no declaration, latin-1 bytes", `<form><label for=a>` + latin + `</label><input id=a name=q></form>`, "", "Réservé"},
		{"utf-8 despite a wrong meta", `<meta charset="iso-8859-1"><form><label for=a>Réservé</label><input id=a name=q></form>`, "", "Réservé"},
		{"header charset wins", `<form><label for=a>` + cyr + `</label><input id=a name=q></form>`, "text/html; charset=windows-1251", "Поиск"},
		{"utf-8 BOM", "\xEF\xBB\xBF<form><label for=a>Réservé</label><input id=a name=q></form>", "", "Réservé"},
		{"gzip", gz.String(), "", "Zoekterm"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := ReadHTML(strings.NewReader(tc.page), tc.contentType)
			if err != nil {
				t.Fatal(err)
			}
			forms, err := ParseForms(doc, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(forms) != 1 || len(forms[0].Fields) != 1 || forms[0].Fields[0].Label != tc.label {
				t.Fatalf("got %+v, want one field labelled %q", forms, tc.label)
			}
		})
	}
}

func TestReadHTMLTooLarge(t *testing.T) {
	r := io.LimitReader(repeatReader('a'), MaxPageBytes+10)
	if _, err := ReadHTML(r, ""); !errors.Is(err, ErrPageTooLarge) {
		t.Fatalf("err = %v, want ErrPageTooLarge", err)
	}
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// TestParseFormsDeepAndWide parses pages far larger than real ones: deep nesting must
// not exhaust the stack, and many controls must stay linear.
func TestParseFormsDeepAndWide(t *testing.T) {
	deep := func(n int) string {
		return strings.Repeat("<div>", n) + `<form action=/s><input name=q><button>Search</button></form>` + strings.Repeat("</div>", n)
	}
	forms := parseString(t, deep(500), "http://example.com/")
	if len(forms) != 1 || len(forms[0].Fields) != 2 {
		t.Fatalf("deep page: %d forms", len(forms))
	}
	if _, err := ReadHTML(strings.NewReader(deep(20000)), ""); err == nil || !strings.Contains(err.Error(), "deeper than 512") {
		t.Fatalf("page nested 20000 deep: err = %v, want a clear refusal", err)
	}
	var b strings.Builder
	b.WriteString("<form action=/s>")
	for range 20000 {
		b.WriteString(`<label>Name <input name=n></label><select name=s><option>a<option>b</select>`)
	}
	b.WriteString("</form>")
	for range 2000 {
		b.WriteString(`<div><input type=text placeholder=search><button>Go</button></div>`)
	}
	// many text boxes sharing one container and a button that says nothing of search
	b.WriteString("<div>")
	for range 5000 {
		b.WriteString(`<input type=text name=x>`)
	}
	b.WriteString("<button>Save</button></div>")
	// many forms emptied by tables
	for range 3000 {
		b.WriteString(`<table><form action=/t><tr><td><input name=t></td></tr></form></table>`)
	}
	forms = parseString(t, b.String(), "http://example.com/")
	if len(forms) != 1+3000+2000 || len(forms[0].Fields) != 40000 || len(forms[1].Fields) != 1 {
		t.Fatalf("wide page: %d forms", len(forms))
	}
	Classify(&forms[0])
	if forms[0].Class == "" {
		t.Fatal("the 40000-field form was not classified")
	}
}

// FuzzParseForms checks that no input makes ReadHTML, ParseForms or Classify panic, and
// that every form they return is well formed.
func FuzzParseForms(f *testing.F) {
	seeds := []string{
		"",
		"<form><input name=q></form>",
		"<table><form><tr><td><input name=a><td><select name=s><option selected>1<option selected>2</select></form></table>",
		"<input form=f name=x><form id=f><input type=radio name=r checked><input type=radio name=r checked></form>",
		"<div role=search><input type=search><button>Go</button></div>",
		"<label for=a>A<select><option>x</select></label><input id=a aria-labelledby='b c'><span id=b>B</span>",
		"<form><textarea name=t>\n\nx</textarea><fieldset disabled><legend><input name=l></legend><input name=d></fieldset></form>",
		"<base href='::'><form action='http://[::1'><input name=q></form>",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, page string) {
		doc, err := ReadHTML(strings.NewReader(page), "")
		if err != nil {
			return // refused (too deep): a clear error is fine
		}
		forms, err := ParseForms(doc, "http://example.com/a/b")
		if err != nil {
			t.Fatal(err)
		}
		for i := range forms {
			Classify(&forms[i])
			fm := forms[i]
			if fm.Class == "" || fm.Confidence <= 0 || fm.Confidence > 1 || fm.Fields == nil || fm.KeywordFields == nil {
				t.Fatalf("form %d badly formed: %+v", i, fm)
			}
			if fm.Method != "GET" && fm.Method != "POST" && fm.Method != "DIALOG" {
				t.Fatalf("form %d method %q", i, fm.Method)
			}
			for _, fl := range fm.Fields {
				if fl.Role == "" || fl.Tag == "" || fl.Type == "" || !strings.HasPrefix(fl.XPath, "/html[1]/") {
					t.Fatalf("form %d field badly formed: %+v", i, fl)
				}
			}
		}
	})
}
