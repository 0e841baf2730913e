package schema

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Month names and abbreviations of the languages whose stop words trawl knows (en, fr,
// de, es), lower case, without accents where the pages often drop them too.
var monthNames = map[string]int{}

func init() {
	lists := [][]string{ // twelve names each, January first
		{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"},
		{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"},
		{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
		{"janv", "févr", "mars", "avr", "mai", "juin", "juil", "août", "sept", "oct", "nov", "déc"},
		{"janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout", "septembre", "octobre", "novembre", "decembre"},
		{"januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september", "oktober", "november", "dezember"},
		{"jänner", "feber", "maerz", "apr", "mai", "jun", "jul", "aug", "sept", "okt", "nov", "dez"},
		{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
		{"ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "set", "oct", "nov", "dic"},
	}
	for _, l := range lists {
		for i, n := range l {
			if _, ok := monthNames[n]; !ok {
				monthNames[n] = i + 1
			}
		}
	}
	names := make([]string, 0, len(monthNames))
	for n := range monthNames {
		names = append(names, regexp.QuoteMeta(n))
	}
	// Longest first, so that "june" wins over "jun".
	slices.SortFunc(names, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	month := `(` + strings.Join(names, "|") + `)\.?`
	day := `(\d{1,2})(?:st|nd|rd|th|er|º)?\.?`
	year := `(\d{4})`
	dateTextDMY = regexp.MustCompile(`(?i)\b` + day + `\s+(?:de\s+)?` + month + `,?\s+(?:de\s+)?` + year + `\b`)
	dateTextMDY = regexp.MustCompile(`(?i)\b` + month + `\s+` + day + `,?\s+` + year + `\b`)
	dateAny = regexp.MustCompile(`(?i)` + dateISO.String() + `|` + dateNum.String() + `|` + dateTextDMY.String() + `|` + dateTextMDY.String())
}

var (
	dateISO     = regexp.MustCompile(`\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b`)
	dateNum     = regexp.MustCompile(`\b(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})\b`)
	dateTextDMY *regexp.Regexp
	dateTextMDY *regexp.Regexp
	// dateAny finds any recognised date inside a longer text.
	dateAny *regexp.Regexp
)

// date is a parsed calendar date; order is "" for unambiguous forms, or "dmy"/"mdy" for
// numeric forms whose day and month could be swapped (both ≤ 12), "dmy!"/"mdy!" when
// only one reading is valid.
type date struct {
	y, m, d int
	a, b    int // the two leading numbers of a numeric date
	numeric bool
}

func validDate(y, m, d int) bool {
	if m < 1 || m > 12 || d < 1 || d > 31 || y < 1 {
		return false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	return t.Day() == d
}

// parseDate parses s when the whole of s is a date.
func parseDate(s string) (date, bool) {
	s = strings.TrimSpace(s)
	if !hasFourDigits(s) {
		return date{}, false // every recognised form has a four-digit year
	}
	if m := dateISO.FindStringSubmatch(s); m != nil && m[0] == s {
		y, mo, d := atoi(m[1]), atoi(m[2]), atoi(m[3])
		return date{y: y, m: mo, d: d}, validDate(y, mo, d)
	}
	if m := dateNum.FindStringSubmatch(s); m != nil && m[0] == s {
		a, b, y := atoi(m[1]), atoi(m[2]), atoi(m[3])
		dt := date{y: y, a: a, b: b, numeric: true}
		return dt, validDate(y, b, a) || validDate(y, a, b)
	}
	if m := dateTextDMY.FindStringSubmatch(s); m != nil && m[0] == s {
		d, mo, y := atoi(m[1]), monthNames[strings.ToLower(m[2])], atoi(m[3])
		return date{y: y, m: mo, d: d}, validDate(y, mo, d)
	}
	if m := dateTextMDY.FindStringSubmatch(s); m != nil && m[0] == s {
		mo, d, y := monthNames[strings.ToLower(m[1])], atoi(m[2]), atoi(m[3])
		return date{y: y, m: mo, d: d}, validDate(y, mo, d)
	}
	return date{}, false
}

// hasFourDigits reports whether s has a run of at least four ASCII digits (a year):
// a cheap test before the date expressions.
func hasFourDigits(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			run++
			if run == 4 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// ymd returns the date under the numeric order, if valid.
func (d date) ymd(order string) (int, int, int, bool) {
	if !d.numeric {
		return d.y, d.m, d.d, validDate(d.y, d.m, d.d)
	}
	switch order {
	case "dmy":
		return d.y, d.b, d.a, validDate(d.y, d.b, d.a)
	case "mdy":
		return d.y, d.a, d.b, validDate(d.y, d.a, d.b)
	}
	return 0, 0, 0, false
}

var (
	numPlain = regexp.MustCompile(`^[+-]?\d+(?:[.,]\d+)?$`)
	numUS    = regexp.MustCompile(`^[+-]?\d{1,3}(?:[, '\x{202f}\x{a0}]\d{3})+(?:\.\d+)?$`)
	numEU    = regexp.MustCompile(`^[+-]?\d{1,3}(?:[. '\x{202f}\x{a0}]\d{3})+(?:,\d+)?$`)
)

// parseNumber returns the xsd lexical form of a number written with optional thousands
// separators and a decimal point or comma, and whether it is an integer. A single comma
// followed by exactly three digits is a thousands separator ("1,234" = 1234).
func parseNumber(s string) (lex string, integer bool, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false, false
	}
	var intPart, frac string
	switch {
	case numUS.MatchString(s) && !(strings.Count(s, ",") == 0 && strings.Count(s, ".") == 1):
		// 1,234,567.89 (commas, spaces or apostrophes as thousands separators)
		s2 := s
		if i := strings.IndexByte(s2, '.'); i >= 0 {
			frac = s2[i+1:]
			s2 = s2[:i]
		}
		intPart = strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' || r == '-' || r == '+' {
				return r
			}
			return -1
		}, s2)
	case numEU.MatchString(s) && strings.Contains(s, ".") || numEU.MatchString(s) && strings.ContainsAny(s, " '\u202f\u00a0"):
		// 1.234.567,89
		s2 := s
		if i := strings.IndexByte(s2, ','); i >= 0 {
			frac = s2[i+1:]
			s2 = s2[:i]
		}
		intPart = strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' || r == '-' || r == '+' {
				return r
			}
			return -1
		}, s2)
	case numPlain.MatchString(s):
		if i := strings.IndexAny(s, ".,"); i >= 0 {
			intPart, frac = s[:i], s[i+1:]
		} else {
			intPart = s
		}
	default:
		return "", false, false
	}
	neg := strings.HasPrefix(intPart, "-")
	intPart = strings.TrimLeft(intPart, "+-")
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	if neg && (intPart != "0" || strings.Trim(frac, "0") != "") {
		intPart = "-" + intPart
	}
	if frac == "" {
		return intPart, true, true
	}
	return intPart + "." + frac, false, true
}

// Currencies: symbols and the ISO 4217 codes of the most traded currencies.
var currencySymbols = []string{"US$", "CA$", "AU$", "A$", "NZ$", "HK$", "R$", "$", "€", "£", "¥", "₹", "₽", "₩", "₺", "₪", "฿", "₫", "₴", "₦", "₱", "zł", "kr", "Kč", "Fr.", "CHF"}

var currencyCodes = map[string]bool{
	"USD": true, "EUR": true, "GBP": true, "JPY": true, "CHF": true, "CAD": true, "AUD": true,
	"NZD": true, "CNY": true, "HKD": true, "SEK": true, "NOK": true, "DKK": true, "PLN": true,
	"CZK": true, "HUF": true, "RUB": true, "INR": true, "BRL": true, "MXN": true, "ZAR": true,
	"TRY": true, "KRW": true, "SGD": true, "ILS": true, "THB": true, "RON": true, "BGN": true,
}

// parsePrice splits a price into its currency and the xsd:decimal lexical form of the
// amount: "$12.99", "12,99 €", "EUR 1.234,50", "£5".
func parsePrice(s string) (currency, amount string, ok bool) {
	s = strings.TrimSpace(s)
	try := func(cur, num string) (string, string, bool) {
		num = strings.TrimSpace(num)
		if cur == "" || num == "" {
			return "", "", false
		}
		lex, integer, ok := parseNumber(num)
		if !ok || strings.HasPrefix(lex, "-") {
			return "", "", false
		}
		if integer {
			lex += ".00"
		}
		return cur, lex, true
	}
	for _, sym := range currencySymbols {
		if rest, ok := strings.CutPrefix(s, sym); ok {
			if c, a, ok := try(sym, rest); ok {
				return c, a, true
			}
		}
		if rest, ok := strings.CutSuffix(s, sym); ok {
			if c, a, ok := try(sym, rest); ok {
				return c, a, true
			}
		}
	}
	if len(s) > 4 {
		if code := s[:3]; currencyCodes[code] && (s[3] == ' ' || s[3] >= '0' && s[3] <= '9') {
			if c, a, ok := try(code, s[3:]); ok {
				return c, a, true
			}
		}
		if code := s[len(s)-3:]; currencyCodes[code] {
			if c, a, ok := try(code, s[:len(s)-3]); ok {
				return c, a, true
			}
		}
	}
	return "", "", false
}

var isbnPrefix = regexp.MustCompile(`(?i)^isbn(?:-?1[03])?:?\s*`)

// parseISBN returns the digits of a valid ISBN-10 or ISBN-13 (hyphens and spaces
// removed, check digit verified).
func parseISBN(s string) (string, bool) {
	s = isbnPrefix.ReplaceAllString(strings.TrimSpace(s), "")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9' || r == 'X' || r == 'x':
			b.WriteRune(r)
		case r == '-' || r == ' ':
		default:
			return "", false
		}
	}
	d := strings.ToUpper(b.String())
	switch len(d) {
	case 10:
		sum := 0
		for i := range 10 {
			c := d[i]
			v := int(c - '0')
			if c == 'X' {
				if i != 9 {
					return "", false
				}
				v = 10
			}
			sum += (10 - i) * v
		}
		return d, sum%11 == 0
	case 13:
		if strings.ContainsRune(d, 'X') || !(strings.HasPrefix(d, "978") || strings.HasPrefix(d, "979")) {
			return "", false
		}
		sum := 0
		for i := range 13 {
			v := int(d[i] - '0')
			if i%2 == 1 {
				v *= 3
			}
			sum += v
		}
		return d, sum%10 == 0
	}
	return "", false
}

var (
	urlRe        = regexp.MustCompile(`^(?i)(?:https?|ftp)://[^\s]+$`)
	identifierRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/#-]*[A-Za-z0-9]$`)
	yearRe       = regexp.MustCompile(`^\d{4}$`)
)

// kinds records which types one value parses as.
type kinds struct {
	url, isbn, date, year, integer, decimal, price, identifier bool
	currency                                                   string
	date_                                                      date
}

func classify(s string) kinds {
	var k kinds
	s = strings.TrimSpace(s)
	if s == "" {
		return k
	}
	k.url = urlRe.MatchString(s)
	_, k.isbn = parseISBN(s)
	if d, ok := parseDate(s); ok {
		k.date, k.date_ = true, d
	}
	if yearRe.MatchString(s) {
		y := atoi(s)
		k.year = y >= 1000 && y <= 2100
	}
	if _, integer, ok := parseNumber(s); ok {
		k.decimal = true
		k.integer = integer
	}
	if cur, _, ok := parsePrice(s); ok {
		k.price, k.currency = true, cur
	}
	if !k.decimal && !k.date && !k.url && len(s) >= 3 && identifierRe.MatchString(s) && strings.ContainsAny(s, "0123456789") {
		k.identifier = true
	}
	if k.isbn {
		k.identifier = true
	}
	return k
}

// typeOf decides the type of a bag of values: the first type, in the order url, isbn,
// date, year, integer, decimal, price, identifier, that at least share of the non-empty
// values have. It also returns the currency of a price and the day/month order of
// numeric dates.
func typeOf(values []string, share float64) (t ValueType, got float64, currency, dateOrder string) {
	var n int
	var c struct {
		url, isbn, date, year, integer, decimal, price, identifier int
		dmyOnly, mdyOnly, numeric                                  int
	}
	currencies := map[string]int{}
	for _, v := range values {
		if strings.TrimSpace(v) == "" {
			continue
		}
		n++
		k := classify(v)
		inc := func(b bool, p *int) {
			if b {
				*p++
			}
		}
		inc(k.url, &c.url)
		inc(k.isbn, &c.isbn)
		inc(k.date, &c.date)
		inc(k.year, &c.year)
		inc(k.integer, &c.integer)
		inc(k.decimal, &c.decimal)
		inc(k.price, &c.price)
		inc(k.identifier, &c.identifier)
		if k.price {
			currencies[k.currency]++
		}
		if k.date && k.date_.numeric {
			c.numeric++
			dmy := validDate(k.date_.y, k.date_.b, k.date_.a)
			mdy := validDate(k.date_.y, k.date_.a, k.date_.b)
			if dmy && !mdy {
				c.dmyOnly++
			}
			if mdy && !dmy {
				c.mdyOnly++
			}
		}
	}
	if n == 0 {
		return TypeString, 0, "", ""
	}
	need := func(k int) bool { return float64(k) >= share*float64(n) }
	frac := func(k int) float64 { return float64(k) / float64(n) }
	switch {
	case need(c.url):
		return TypeURL, frac(c.url), "", ""
	case need(c.isbn):
		return TypeISBN, frac(c.isbn), "", ""
	case need(c.date):
		if c.numeric > 0 {
			switch {
			case c.dmyOnly > 0 && c.mdyOnly == 0:
				dateOrder = "dmy"
			case c.mdyOnly > 0 && c.dmyOnly == 0:
				dateOrder = "mdy"
			default:
				// Day and month cannot be told apart (or disagree): not typed as a date.
				return TypeString, 1 - frac(c.date), "", ""
			}
		}
		return TypeDate, frac(c.date), "", dateOrder
	case need(c.year):
		return TypeYear, frac(c.year), "", ""
	case need(c.integer):
		return TypeInteger, frac(c.integer), "", ""
	case need(c.decimal):
		return TypeDecimal, frac(c.decimal), "", ""
	case need(c.price):
		if len(currencies) == 1 {
			for cur := range currencies {
				currency = cur
			}
		}
		return TypePrice, frac(c.price), currency, ""
	case need(c.identifier):
		return TypeIdentifier, frac(c.identifier), "", ""
	}
	return TypeString, 1, "", ""
}

// Typed returns the canonical lexical form of v under the feature's type, for the
// integer, decimal, price (the amount, when v is in the feature's currency), date
// (YYYY-MM-DD) and year (YYYY) types. ok is false when v does not parse as that type or
// the type has no typed lexical form; then v is written as a plain string.
func (f *Feature) Typed(v string) (lex string, ok bool) {
	v = strings.TrimSpace(v)
	switch f.Type {
	case TypeInteger:
		if lex, integer, ok := parseNumber(v); ok && integer {
			return lex, true
		}
	case TypeDecimal:
		lex, _, ok := parseNumber(v)
		return lex, ok
	case TypePrice:
		cur, amount, ok := parsePrice(v)
		if !ok || f.Currency == "" || cur != f.Currency {
			return "", false
		}
		return amount, true
	case TypeYear:
		if yearRe.MatchString(v) {
			return v, true
		}
		// A date whose day and month are a placeholder (yearOnly): its year.
		if d, ok := parseDate(v); ok && d.y >= 1 && d.y <= 9999 {
			return fmt.Sprintf("%04d", d.y), true
		}
	case TypeDate:
		d, ok := parseDate(v)
		if !ok {
			return "", false
		}
		y, m, dd, ok := d.ymd(f.DateOrder)
		if !ok || y > 9999 {
			return "", false
		}
		return fmt.Sprintf("%04d-%02d-%02d", y, m, dd), true
	}
	return "", false
}

// yearOnly reports whether the dates of a date feature carry a year and nothing more:
// (almost) all share one day and month across several years, a placeholder such as
// the 2nd of January that a catalogue prints for a book known by its year. Their
// precision is the year (xsd:gYear), not the day the page seems to show.
func yearOnly(values []string, order string) bool {
	days := map[[2]int]int{}
	years := map[int]bool{}
	n := 0
	for _, v := range values {
		d, ok := parseDate(v)
		if !ok {
			continue
		}
		y, m, dd, ok := d.ymd(order)
		if !ok {
			continue
		}
		n++
		days[[2]int{m, dd}]++
		years[y] = true
	}
	top := 0
	for _, k := range days {
		top = max(top, k)
	}
	return n >= 5 && len(years) >= 3 && float64(top) >= 0.95*float64(n)
}
