package schema

import "testing"

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in, lex string
		integer bool
		ok      bool
	}{
		{"42", "42", true, true},
		{"-007", "-7", true, true},
		{"1,234", "1234", true, true},
		{"1,234,567.89", "1234567.89", false, true},
		{"1.234.567,89", "1234567.89", false, true},
		{"12,5", "12.5", false, true},
		{"12.50", "12.50", false, true},
		{"1 234", "1234", true, true},
		{"-0", "0", true, true},
		{"1.0", "1.0", false, true},
		{"12a", "", false, false},
		{"", "", false, false},
		{"1,2,3", "", false, false},
	}
	for _, tc := range tests {
		lex, integer, ok := parseNumber(tc.in)
		if lex != tc.lex || integer != tc.integer || ok != tc.ok {
			t.Errorf("parseNumber(%q) = %q, %v, %v; want %q, %v, %v", tc.in, lex, integer, ok, tc.lex, tc.integer, tc.ok)
		}
	}
}

func TestParsePrice(t *testing.T) {
	tests := []struct{ in, cur, amount string }{
		{"$12.99", "$", "12.99"},
		{"12,99 €", "€", "12.99"},
		{"€ 1.234,50", "€", "1234.50"},
		{"EUR 5", "EUR", "5.00"},
		{"£5", "£", "5.00"},
		{"12.00 USD", "USD", "12.00"},
		{"US$ 3.50", "US$", "3.50"},
		{"12.99", "", ""},
		{"$", "", ""},
		{"-$5", "", ""},
	}
	for _, tc := range tests {
		cur, amount, ok := parsePrice(tc.in)
		if cur != tc.cur || amount != tc.amount || ok != (tc.cur != "") {
			t.Errorf("parsePrice(%q) = %q, %q, %v; want %q, %q", tc.in, cur, amount, ok, tc.cur, tc.amount)
		}
	}
}

func TestParseISBN(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"978-0-439-02348-1", "9780439023481", true},
		{"ISBN 0-439-02348-3", "0439023483", true},
		{"ISBN-10: 080442957X", "080442957X", true},
		{"978-0-439-02348-2", "9780439023482", false}, // bad check digit
		{"0439023484", "0439023484", false},
		{"12345", "12345", false},
	}
	for _, tc := range tests {
		got, ok := parseISBN(tc.in)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("parseISBN(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParseDate(t *testing.T) {
	tests := []struct {
		in      string
		y, m, d int
		ok      bool
	}{
		{"02 Jan, 1880", 1880, 1, 2, true},
		{"2 January 1880", 1880, 1, 2, true},
		{"January 2, 1880", 1880, 1, 2, true},
		{"Jan. 2nd, 1880", 1880, 1, 2, true},
		{"1880-01-02", 1880, 1, 2, true},
		{"12 mars 1999", 1999, 3, 12, true},
		{"3. Oktober 1990", 1990, 10, 3, true},
		{"5 de mayo de 1862", 1862, 5, 5, true},
		{"31 Feb 2001", 0, 0, 0, false},
		{"1880", 0, 0, 0, false},
		{"May the Force", 0, 0, 0, false},
	}
	for _, tc := range tests {
		d, ok := parseDate(tc.in)
		if ok != tc.ok {
			t.Errorf("parseDate(%q) ok = %v, want %v", tc.in, ok, tc.ok)
			continue
		}
		if ok && (d.y != tc.y || d.m != tc.m || d.d != tc.d) {
			t.Errorf("parseDate(%q) = %d-%d-%d, want %d-%d-%d", tc.in, d.y, d.m, d.d, tc.y, tc.m, tc.d)
		}
	}
}

func TestTypeOf(t *testing.T) {
	tests := []struct {
		name  string
		vals  []string
		want  ValueType
		cur   string
		order string
	}{
		{"years", []string{"1861", "1850", "2008", ""}, TypeYear, "", ""},
		{"integers", []string{"320", "1,024", "96"}, TypeInteger, "", ""},
		{"decimals", []string{"1.0", "2.5", "3"}, TypeDecimal, "", ""},
		{"prices", []string{"$8.99", "$11.50", "$20"}, TypePrice, "$", ""},
		{"mixed currencies", []string{"$8.99", "€11,50"}, TypePrice, "", ""},
		{"text dates", []string{"02 Jan, 1880", "02 Jan, 1866"}, TypeDate, "", ""},
		{"dmy dates", []string{"25/12/2001", "01/02/2003"}, TypeDate, "", "dmy"},
		{"mdy dates", []string{"12/25/2001", "01/02/2003"}, TypeDate, "", "mdy"},
		{"ambiguous dates", []string{"01/02/2003", "03/04/2005"}, TypeString, "", ""},
		{"urls", []string{"http://a.example/1", "https://b.example/x?y=1"}, TypeURL, "", ""},
		{"isbns", []string{"978-0-439-02348-1", "9780439023498"}, TypeISBN, "", ""},
		{"identifiers", []string{"B000FC1PJI", "B00K0OI42W", "A1B2C3"}, TypeIdentifier, "", ""},
		{"strings", []string{"Emma", "Dune"}, TypeString, "", ""},
		{"mostly years", []string{"1861", "1850", "1900", "1901", "1902", "1903", "1904", "1905", "1906", "n/a"}, TypeYear, "", ""},
		{"not enough years", []string{"1861", "n/a", "unknown"}, TypeString, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _, cur, order := typeOf(tc.vals, 0.9)
			if got != tc.want || cur != tc.cur || order != tc.order {
				t.Errorf("typeOf(%q) = %s, %q, %q; want %s, %q, %q", tc.vals, got, cur, order, tc.want, tc.cur, tc.order)
			}
		})
	}
}

func TestTyped(t *testing.T) {
	tests := []struct {
		f    Feature
		in   string
		want string
		ok   bool
	}{
		{Feature{Type: TypeInteger}, "1,024", "1024", true},
		{Feature{Type: TypeInteger}, "1.5", "", false},
		{Feature{Type: TypeDecimal}, "12,5", "12.5", true},
		{Feature{Type: TypePrice, Currency: "$"}, "$8.99", "8.99", true},
		{Feature{Type: TypePrice, Currency: "$"}, "€8.99", "", false},
		{Feature{Type: TypePrice}, "$8.99", "", false},
		{Feature{Type: TypeYear}, "1861", "1861", true},
		{Feature{Type: TypeYear}, "c. 1861", "", false},
		{Feature{Type: TypeDate}, "02 Jan, 1880", "1880-01-02", true},
		{Feature{Type: TypeDate, DateOrder: "dmy"}, "01/02/2003", "2003-02-01", true},
		{Feature{Type: TypeDate, DateOrder: "mdy"}, "01/02/2003", "2003-01-02", true},
		{Feature{Type: TypeDate}, "01/02/2003", "", false},
		{Feature{Type: TypeString}, "Emma", "", false},
	}
	for _, tc := range tests {
		got, ok := tc.f.Typed(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s.Typed(%q) = %q, %v; want %q, %v", tc.f.Type, tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestYearOnlyDates(t *testing.T) {
	placeholder := []string{"02 Jan, 2008", "02 Jan, 1997", "02 Jan, 2005", "02 Jan, 1960", "02 Jan, 1813", "02 Jan, 2011"}
	if !yearOnly(placeholder, "") {
		t.Errorf("%q: want year precision", placeholder)
	}
	f := Feature{Type: TypeYear}
	if lex, ok := f.Typed("02 Jan, 2008"); !ok || lex != "2008" {
		t.Errorf("Typed(02 Jan, 2008) as a year = %q, %v; want 2008", lex, ok)
	}
	real := []string{"January 16, 2019", "January 5, 2019", "January 14, 2019", "February 2, 2019", "March 9, 2018", "January 16, 2017"}
	if yearOnly(real, "") {
		t.Errorf("%q: days vary, want day precision", real)
	}
}
