package probe

import (
	"strings"
	"testing"
)

func TestClassifySchemaPage(t *testing.T) {
	forms := readForms(t, "schema.html", "https://lib.example/home/index.html")
	tests := []struct {
		class    Class
		keywords string
	}{
		{ClassLogin, ""},
		{ClassSearch, "q"},
		{ClassOrder, ""},
		{ClassMailingList, ""},
		{ClassSearch, ""}, // the formless box has no name: its role says keyword
	}
	for i, tc := range tests {
		f := forms[i]
		Classify(&f)
		if f.Class != tc.class || strings.Join(f.KeywordFields, ",") != tc.keywords {
			t.Errorf("form %d (%s): class %s keywords %q, want %s %q", i, f.XPath, f.Class, f.KeywordFields, tc.class, tc.keywords)
		}
		if f.Confidence <= 0 || f.Confidence > 1 {
			t.Errorf("form %d: confidence %v", i, f.Confidence)
		}
		for _, fl := range f.Fields {
			if fl.Role == "" {
				t.Errorf("form %d field %q has no role", i, fl.Name)
			}
		}
	}
	formless := forms[4]
	Classify(&formless)
	if formless.Fields[0].Role != RoleKeyword {
		t.Errorf("formless search box role %q", formless.Fields[0].Role)
	}
	i, ok := BestSearchForm(classified(forms))
	if !ok || i != 1 {
		t.Errorf("BestSearchForm = %d, %v; want 1", i, ok)
	}
}

func classified(forms []Form) []Form {
	out := make([]Form, len(forms))
	for i, f := range forms {
		Classify(&f)
		out[i] = f
	}
	return out
}

// TestClassifyTypicalForms runs the embedded model on small hand-written forms of each
// class, in several languages, none of them from the training pages.
func TestClassifyTypicalForms(t *testing.T) {
	tests := []struct {
		name, page string
		class      Class
		keywords   string
	}{
		{"site search", `<form action="/search"><input name="q"><input type="submit" value="Search"></form>`, ClassSearch, "q"},
		{"wordpress search", `<form role="search" method="get" action="https://blog.example/"><label>Search for: <input type="search" name="s"></label><button>Search</button></form>`, ClassSearch, "s"},
		{"german catalogue", `<form action="/katalog/suche"><label for="t">Titel</label><input id="t" name="titel"><label for="a">Autor</label><input id="a" name="autor"><select name="sort"><option>Relevanz</option><option>Datum</option></select><input type="submit" value="Suchen"></form>`, ClassSearch, ""},
		{"login", `<form method="post" action="/session"><input name="email" type="email" placeholder="Email"><input type="password" name="password"><input type="checkbox" name="remember"> Remember me<button>Sign in</button><a href="/reset">Forgot password?</a></form>`, ClassLogin, ""},
		{"french registration", `<form method="post" action="/inscription"><input name="pseudo" placeholder="Pseudo"><input type="email" name="mail"><input type="password" name="mdp"><input type="password" name="mdp2" placeholder="Confirmer le mot de passe"><input type="checkbox" name="cgu"> J'accepte les conditions<input type="submit" value="Créer mon compte"></form>`, ClassRegistration, ""},
		{"password reset", `<form method="post" action="/password/reset"><h2>Forgot your password?</h2><input type="email" name="email" placeholder="Your email"><button>Send reset link</button></form>`, ClassPasswordRecovery, ""},
		{"contact", `<form method="post" action="/contact"><input name="name" placeholder="Name"><input type="email" name="email"><input name="subject"><textarea name="message"></textarea><button>Send message</button></form>`, ClassContact, ""},
		{"newsletter", `<form method="post" action="/newsletter/subscribe"><input type="email" name="EMAIL" placeholder="Your email address"><input type="submit" value="Subscribe"></form>`, ClassMailingList, ""},
		{"spanish search", `<form action="/buscar" method="get"><input type="text" name="texto" placeholder="Buscar en el sitio"><button type="submit">Buscar</button></form>`, ClassSearch, "texto"},
		{"russian search", `<form action="/search/"><input name="query" placeholder="Поиск по сайту"><input type="submit" value="Найти"></form>`, ClassSearch, "query"},
		{"chinese search", `<form action="/s"><input name="wd" maxlength="100"><input type="submit" value="搜索"></form>`, ClassSearch, "wd"},
		{"job search", `<form action="/jobs"><label>What <input name="what" placeholder="Job title, keywords"></label><label>Where <input name="where" placeholder="City or postcode"></label><select name="radius"><option>10 km</option><option>25 km</option></select><button>Find jobs</button></form>`, ClassSearch, "what"},
		{"password change is never search", `<form method="post" action="/search/settings"><input type="password" name="old"><input type="password" name="new"><button>Search</button></form>`, ClassOther, ""},
		{"comment", `<form method="post" action="/wp-comments-post.php"><textarea name="comment"></textarea><input name="author" placeholder="Name"><input type="email" name="email"><input name="url" placeholder="Website"><input type="submit" value="Post Comment"></form>`, ClassContact, ""},
		{"library opac", `<form action="/cgi-bin/koha/opac-search.pl" method="get"><select name="idx"><option value="">Library catalog</option><option value="ti">Title</option><option value="au">Author</option></select><input type="text" name="q" title="Type search term"><input type="submit" value="Go"></form>`, ClassSearch, "q"},
		{"real estate", `<form action="/properties" method="get"><select name="type"><option>House</option><option>Flat</option></select><input name="location" placeholder="Town or postcode"><select name="min_price"><option>£100,000</option></select><select name="max_price"><option>£500,000</option></select><button type="submit">Search properties</button></form>`, ClassSearch, ""}, // a location box is typed input, not a keyword box (as in Formasaurus's annotations)
		{"italian login", `<form method="post" action="/accedi"><label>Nome utente <input name="utente"></label><label>Password <input type="password" name="pwd"></label><input type="submit" value="Accedi"></form>`, ClassLogin, ""},
		{"german newsletter", `<form method="post" action="/newsletter"><p>Melden Sie sich für unseren Newsletter an</p><input type="email" name="email" placeholder="E-Mail-Adresse"><button>Abonnieren</button></form>`, ClassMailingList, ""},
		{"add to cart", `<form method="post" action="/cart/add"><input type="hidden" name="product_id" value="42"><select name="size"><option>S</option><option>M</option></select><input name="quantity" value="1" size="2"><button>Add to cart</button></form>`, ClassOrder, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			forms := parseString(t, tc.page, "https://www.example.org/")
			if len(forms) != 1 {
				t.Fatalf("%d forms", len(forms))
			}
			f := forms[0]
			Classify(&f)
			if f.Class != tc.class {
				t.Errorf("class %s (%.2f), want %s", f.Class, f.Confidence, tc.class)
			}
			if tc.class == ClassSearch && strings.Join(f.KeywordFields, ",") != tc.keywords && tc.keywords != "" {
				t.Errorf("keyword fields %q, want %q", f.KeywordFields, tc.keywords)
			}
		})
	}
}

// TestClassifySettingsFiltersAndCode: issue 14's form kinds. Forms that only change the
// display or save preferences are not search forms; a filter panel (column, operator,
// value) is one; a SQL or code box is never a keyword box.
func TestClassifySettingsFiltersAndCode(t *testing.T) {
	tests := []struct {
		name, page string
		search     bool
		keywords   string // "-" = none may be chosen
	}{
		{"display preferences", `<form method="post" action="/index.php?route=/preferences/manage"><input type="hidden" name="token" value="x"><label>Rows per page <select name="max_rows"><option>25</option><option>50</option><option>100</option></select></label><label>Theme <select name="theme"><option>light</option><option>dark</option></select></label><label>Language <select name="lang"><option>English</option><option>Deutsch</option></select></label><input type="submit" name="submit_save" value="Save"></form>`, false, "-"},
		{"rows per page", `<form action="/list" method="get"><label>Show <select name="per_page" onchange="this.form.submit()"><option>10</option><option>25</option></select> entries</label></form>`, false, "-"},
		{"filter panel", `<form action="/issues" method="get"><fieldset><legend>Filters</legend><select name="f[]"><option value="status">Status</option><option value="tracker">Tracker</option><option value="subject">Subject</option></select><select name="op[subject]"><option value="~">contains</option><option value="=">is</option><option value="!~">doesn't contain</option></select><input name="v[subject][]" type="text"></fieldset><input type="submit" value="Apply"></form>`, true, ""},
		{"sql box", `<form action="/sql.php" method="post"><label for="sq">Run SQL query/queries on table film:</label><textarea id="sq" name="sql_query" class="codemirror"></textarea><input type="submit" value="Go"></form>`, false, "-"},
		{"sql where box beside a search", `<form action="/select" method="get"><input type="search" name="q" placeholder="Search"><label>WHERE (SQL) <input name="where_sql"></label><button>Search</button></form>`, true, "q"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			forms := parseString(t, tc.page, "https://www.example.org/")
			if len(forms) != 1 {
				t.Fatalf("%d forms", len(forms))
			}
			f := forms[0]
			Classify(&f)
			if (f.Class == ClassSearch) != tc.search {
				t.Errorf("class %s (%.2f), want search %v", f.Class, f.Confidence, tc.search)
			}
			switch {
			case tc.keywords == "-":
				for _, k := range f.KeywordFields {
					if strings.Contains(k, "sql") {
						t.Errorf("the code box %q is a keyword box", k)
					}
				}
			case tc.keywords != "" && strings.Join(f.KeywordFields, ",") != tc.keywords:
				t.Errorf("keyword fields %q, want %q", f.KeywordFields, tc.keywords)
			}
		})
	}
}
