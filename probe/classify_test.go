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
