package ontology

import (
	"strconv"
	"strings"

	"github.com/trawl-dev/trawl/graph"
)

// datePattern is a calendar date with YAGO's '#' wildcards for unknown digits:
// "1838-##-##" is a year, "1838-05-##" a month, "06##-##-##" a century. The year has
// exactly four characters (zero-padded); neg marks years before the common era.
// Wildcards are trailing: once a digit is unknown, every later one is too.
type datePattern struct {
	neg bool
	c   [8]byte // YYYYMMDD, digits or '#'
}

// String returns the pattern in YAGO's form, e.g. "1838-##-##" or "-0044-03-15".
func (d datePattern) String() string {
	s := string(d.c[0:4]) + "-" + string(d.c[4:6]) + "-" + string(d.c[6:8])
	if d.neg {
		return "-" + s
	}
	return s
}

// includes reports whether d includes e: every known digit of d equals e's digit
// (javatools' DateParser.includes, as PARIS uses it).
func (d datePattern) includes(e datePattern) bool {
	if d.neg != e.neg {
		return false
	}
	for i, c := range d.c {
		if c != '#' && c != e.c[i] {
			return false
		}
	}
	return true
}

// matches reports whether one of the two dates includes the other.
func (d datePattern) matches(e datePattern) bool { return d.includes(e) || e.includes(d) }

// pack encodes the pattern in 33 bits: the sign, then 4 bits per character ('#' = 0,
// digit d = d+1), so that packed values sort like the index keys ('+' < '-', '#' < '0').
func (d datePattern) pack() uint64 {
	var v uint64
	if d.neg {
		v = 1
	}
	for _, c := range d.c {
		x := uint64(0)
		if c != '#' {
			x = uint64(c-'0') + 1
		}
		v = v<<4 | x
	}
	return v
}

func unpackDate(v uint64) datePattern {
	var d datePattern
	for i := 7; i >= 0; i-- {
		x := byte(v & 0xF)
		v >>= 4
		if x == 0 {
			d.c[i] = '#'
		} else {
			d.c[i] = '0' + x - 1
		}
	}
	d.neg = v&1 == 1
	return d
}

// yearKey is the index key of the pattern's year: the sign and the 4 year characters.
func (d datePattern) yearKey() [5]byte {
	var k [5]byte
	if d.neg {
		k[0] = '-'
	} else {
		k[0] = '+'
	}
	copy(k[1:], d.c[0:4])
	return k
}

// dateTypes are the datatypes whose literals are indexed as dates.
var dateTypes = map[string]bool{
	graph.XSD + "date":          true,
	graph.XSD + "dateTime":      true,
	graph.XSD + "gYear":         true,
	graph.XSD + "gYearMonth":    true,
	graph.XSD + "dateTimeStamp": true,
}

// parseISODate parses the lexical forms of xsd:date, xsd:dateTime, xsd:gYear and
// xsd:gYearMonth, with YAGO's '#' wildcards and years of fewer than four digits
// ("969-##-##"). A time of day or a time zone after the date is ignored.
func parseISODate(s string) (datePattern, bool) {
	var d datePattern
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "-") {
		d.neg = true
		s = s[1:]
	} else if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	// The year: 1 to 4 characters (more digits do not fit YAGO's patterns).
	i := 0
	for i < len(s) && (isDigit(s[i]) || s[i] == '#') {
		i++
	}
	if i == 0 || i > 4 {
		return datePattern{}, false
	}
	year := s[:i]
	for j := range 4 - len(year) {
		d.c[j] = '0'
	}
	copy(d.c[4-len(year):4], year)
	rest := s[i:]
	for k := range d.c[4:] {
		d.c[4+k] = '#'
	}
	for part := 0; part < 2 && strings.HasPrefix(rest, "-"); part++ {
		if len(rest) < 3 || !isDateChar(rest[1]) || !isDateChar(rest[2]) {
			return datePattern{}, false
		}
		d.c[4+2*part], d.c[5+2*part] = rest[1], rest[2]
		rest = rest[3:]
	}
	// A time or a time zone may follow; anything else does not make a date.
	if rest != "" && rest[0] != 'T' && rest[0] != 'Z' && rest[0] != '+' && rest[0] != '-' {
		return datePattern{}, false
	}
	if !d.valid() {
		return datePattern{}, false
	}
	return d, true
}

// valid checks that wildcards are trailing and that known months and days are in range.
func (d datePattern) valid() bool {
	wild := false
	for _, c := range d.c {
		if c == '#' {
			wild = true
		} else if wild {
			return false
		}
	}
	if m := d.c[4:6]; m[0] != '#' && m[1] != '#' {
		v := int(m[0]-'0')*10 + int(m[1]-'0')
		if v < 1 || v > 12 {
			return false
		}
	}
	if dd := d.c[6:8]; dd[0] != '#' && dd[1] != '#' {
		v := int(dd[0]-'0')*10 + int(dd[1]-'0')
		if v < 1 || v > 31 {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isDateChar(c byte) bool { return isDigit(c) || c == '#' }

var monthNames = map[string]int{
	"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
	"may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9,
	"september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}

// parseQueryDate reads a date in a search text: an ISO or YAGO pattern ("1838",
// "1838-05", "1838-05-12", "1838-##-##"), or an English date such as "12 May 1838",
// "May 12, 1838", "02 Jan, 1880" or "May 1838". A bare number is a year only if it has
// three or four digits.
func parseQueryDate(text string) (datePattern, bool) {
	s := strings.TrimSpace(text)
	if s == "" {
		return datePattern{}, false
	}
	if d, ok := parseISODate(s); ok {
		year := strings.TrimLeft(s, "+-")
		if !strings.ContainsAny(year, "-#") && (len(year) < 3 || len(year) > 4) {
			return datePattern{}, false // "12" is not a year
		}
		return d, true
	}
	// English forms: tokens of a day, a month name and a year, in any order.
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ' ' || r == ',' || r == '.' || r == '/' })
	if len(f) < 2 || len(f) > 3 {
		return datePattern{}, false
	}
	month, day, year := 0, 0, -1
	for _, w := range f {
		if m, ok := monthNames[w]; ok && month == 0 {
			month = m
			continue
		}
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(w, "st"), "nd"), "rd"), "th"))
		if err != nil || n < 0 {
			return datePattern{}, false
		}
		switch {
		case len(w) >= 3 && year < 0:
			year = n
		case n >= 1 && n <= 31 && day == 0:
			day = n
		default:
			return datePattern{}, false
		}
	}
	if month == 0 || year < 0 || year > 9999 {
		return datePattern{}, false
	}
	iso := strconv.Itoa(year)
	for len(iso) < 4 {
		iso = "0" + iso
	}
	iso += "-" + twoDigits(month)
	if day > 0 {
		iso += "-" + twoDigits(day)
	}
	return parseISODate(iso)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
