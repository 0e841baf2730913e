package graph

import (
	"strconv"
	"strings"
)

// Dates as literal matching sees them: a year, a year and month, or a full date, each
// digit possibly unknown. YAGO writes unknown digits as '#' ("1838-##-##", "06##-##-##"
// for the 7th century) and years before 1000 with three digits ("969-##-##"); a date
// with a known year and unknown day stands for any day of that year. Two dates match
// when one includes the other (the inclusion semantics of the javatools DateParser that
// YAGO and PARIS use): "1838" includes "1838-05-12", "18##-##-##" includes both.
//
// This is the only date parser of trawl's KBs: the in-memory graph (Memory) and the
// Badger store of package ontology index and look up dates with it.

// Date is a calendar date with possibly unknown digits. Digits holds YYYYMMDD, one byte
// per digit, '#' for an unknown digit (missing month and day parts are all '#'); a
// three-digit year is padded with a leading '0'. Unknown digits are trailing: once a
// digit is '#', every later one is too. Neg is true for years before year 1 (xsd:date
// "-0044-03-15").
type Date struct {
	Digits [8]byte
	Neg    bool
}

// DateTypes are the datatypes whose literals are dates to the literal matcher (when
// their lexical form parses with ParseDate).
var DateTypes = map[string]bool{
	XSD + "date":          true,
	XSD + "dateTime":      true,
	XSD + "dateTimeStamp": true,
	XSD + "gYear":         true,
	XSD + "gYearMonth":    true,
}

// ParseDate reads the lexical form of a date: an optional sign, a year of three or
// four digits, then optionally "-MM" and "-DD", where any digit may be '#' (YAGO's
// wildcards, trailing only). A time after 'T' and a time zone ('Z', "+hh:mm",
// "-hh:mm") are ignored, and so is white space around the value. Known months must be
// 01–12 and known days 01–31. It reports false for anything else, so "19690505",
// "1942.0", "12-05" or "12 km" are not dates.
func ParseDate(s string) (Date, bool) {
	var d Date
	s = strings.TrimSpace(s)
	if s != "" && (s[0] == '-' || s[0] == '+') {
		d.Neg = s[0] == '-'
		s = s[1:]
	}
	y := 0
	for y < len(s) && isDateChar(s[y]) {
		y++
	}
	if y < 3 || y > 4 {
		return Date{}, false
	}
	for i := range d.Digits {
		d.Digits[i] = '#'
	}
	d.Digits[0] = '0' // a three-digit year is padded
	copy(d.Digits[4-y:4], s[:y])
	rest := s[y:]
	for part := 0; part < 2 && len(rest) > 0 && rest[0] == '-' && !isZone(rest); part++ {
		if len(rest) < 3 || !isDateChar(rest[1]) || !isDateChar(rest[2]) || len(rest) > 3 && isDateChar(rest[3]) {
			return Date{}, false
		}
		copy(d.Digits[4+2*part:6+2*part], rest[1:3])
		rest = rest[3:]
	}
	switch {
	case rest == "", rest[0] == 'T', rest == "Z", isZone(rest):
	default:
		return Date{}, false
	}
	if !d.valid() {
		return Date{}, false
	}
	return d, true
}

// isZone reports whether s is a time-zone offset "+hh:mm" or "-hh:mm".
func isZone(s string) bool {
	return len(s) == 6 && (s[0] == '+' || s[0] == '-') && s[3] == ':' &&
		isDigit(s[1]) && isDigit(s[2]) && isDigit(s[4]) && isDigit(s[5])
}

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isDateChar(c byte) bool { return isDigit(c) || c == '#' }

// valid checks that wildcards are trailing and that known months and days are in range.
func (d Date) valid() bool {
	wild := false
	for _, c := range d.Digits {
		switch {
		case c == '#':
			wild = true
		case wild:
			return false
		}
	}
	if m, ok := twoDigits(d.Digits[4], d.Digits[5]); ok && (m < 1 || m > 12) {
		return false
	}
	if dd, ok := twoDigits(d.Digits[6], d.Digits[7]); ok && (dd < 1 || dd > 31) {
		return false
	}
	return true
}

func twoDigits(a, b byte) (int, bool) {
	if a == '#' || b == '#' {
		return 0, false
	}
	return int(a-'0')*10 + int(b-'0'), true
}

// DateOf returns the date of a literal: a literal whose datatype is one of DateTypes
// and whose lexical form parses. Other literals, plain strings included, are not
// dates (a search text is read with ParseQueryDate instead).
func DateOf(t Term) (Date, bool) {
	if t.Kind != KindLiteral || !DateTypes[t.Datatype] {
		return Date{}, false
	}
	return ParseDate(t.Value)
}

var monthNames = map[string]int{
	"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
	"may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9,
	"september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}

// ParseQueryDate reads a date in a search text: the forms of ParseDate ("1838",
// "1838-05", "1838-05-12", "1838-##-##", "969-##-##"), or an English date such as
// "12 May 1838", "May 12, 1838", "02 Jan, 1880" or "May 1838". A bare number is a year
// only if it has three or four digits.
func ParseQueryDate(text string) (Date, bool) {
	s := strings.TrimSpace(text)
	if s == "" {
		return Date{}, false
	}
	if d, ok := ParseDate(s); ok {
		return d, true
	}
	// English forms: tokens of a day, a month name and a year, in any order.
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ' ' || r == ',' || r == '.' || r == '/' })
	if len(f) < 2 || len(f) > 3 {
		return Date{}, false
	}
	month, day, year := 0, 0, -1
	for _, w := range f {
		if m, ok := monthNames[w]; ok && month == 0 {
			month = m
			continue
		}
		num := strings.TrimRight(w, "stndrh") // 1st, 2nd, 3rd, 4th
		n, err := strconv.Atoi(num)
		if err != nil || n < 0 {
			return Date{}, false
		}
		switch {
		case len(num) >= 3 && year < 0:
			year = n
		case n >= 1 && n <= 31 && day == 0:
			day = n
		default:
			return Date{}, false
		}
	}
	if month == 0 || year < 0 || year > 9999 {
		return Date{}, false
	}
	var d Date
	copy(d.Digits[:], "########")
	copy(d.Digits[0:4], pad(year, 4))
	copy(d.Digits[4:6], pad(month, 2))
	if day > 0 {
		copy(d.Digits[6:8], pad(day, 2))
	}
	if !d.valid() {
		return Date{}, false
	}
	return d, true
}

func pad(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
}

// Includes reports whether d includes o: every digit d knows, o knows too and has the
// same value. A date includes itself.
func (d Date) Includes(o Date) bool {
	if d.Neg != o.Neg {
		return false
	}
	for i, c := range d.Digits {
		if c != '#' && c != o.Digits[i] {
			return false
		}
	}
	return true
}

// Overlaps reports whether one of d and o includes the other: the date match of the
// literal matcher.
func (d Date) Overlaps(o Date) bool { return d.Includes(o) || o.Includes(d) }

// Year returns the year and true when all four year digits are known.
func (d Date) Year() (int, bool) {
	y := 0
	for _, c := range d.Digits[0:4] {
		if c == '#' {
			return 0, false
		}
		y = y*10 + int(c-'0')
	}
	if d.Neg {
		y = -y
	}
	return y, true
}

// Compare is a total order of dates (not a chronological one): negative years first,
// then by digits, an unknown digit before every known one. It returns -1, 0 or +1.
func (d Date) Compare(o Date) int {
	if d.Neg != o.Neg {
		if d.Neg {
			return -1
		}
		return 1
	}
	return strings.Compare(string(d.Digits[:]), string(o.Digits[:]))
}

// String returns the date as YYYY-MM-DD with '#' for unknown digits.
func (d Date) String() string {
	b := make([]byte, 0, 11)
	if d.Neg {
		b = append(b, '-')
	}
	b = append(b, d.Digits[0:4]...)
	b = append(b, '-')
	b = append(b, d.Digits[4:6]...)
	b = append(b, '-')
	b = append(b, d.Digits[6:8]...)
	return string(b)
}
