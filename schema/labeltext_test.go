package schema

import "testing"

func TestCleanLabel(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Title ↓", "Title"},
		{"▲ Year ▼", "Year"},
		{"title int(11)", "title"},
		{"int(11)", "int(11)"},
		{"price decimal(10,2)", "price"},
		{"title Title", "Title"},
		{"Release date Release date", "Release date"},
		{"🔍", ""},
		{"(", ""},
		{"Author:", "Author"},
		{"Price ($)", "Price ($)"},
		{"<b>Pages</b> ", "Pages"},
		{"Last modified:", "Last modified"},
	} {
		if got := CleanLabel(tc.in); got != tc.want {
			t.Errorf("CleanLabel(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
