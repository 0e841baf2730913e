package graph

// Dates as literal matching sees them: a year, a year and month, or a full date, each
// digit possibly unknown. YAGO3 writes unknown digits as '#' ("1838-##-##"), and a date
// with a known year and unknown day stands for any day of that year. Two dates match
// when one includes the other (the inclusion semantics of the javatools DateParser that
// YAGO and PARIS use): "1838" includes "1838-05-12", "18##-##-##" includes both.

// Date is a calendar date with possibly unknown digits. Digits holds YYYYMMDD, one byte
// per digit, '#' for an unknown digit (missing month and day parts are all '#'). Neg is
// true for years before year 1 (xsd:date "-0044-03-15").
type Date struct {
	Digits [8]byte
	Neg    bool
}

// ParseDate reads the lexical form of a date: an optional '-', four year digits, then
// optionally "-MM" and "-DD", where any digit may be '#'. A time part after 'T' and a
// time-zone suffix ('Z', "+hh:mm") are ignored. It reports false for anything else, so
// "19690505", "1942.0" or "12 km" are not dates.
func ParseDate(s string) (Date, bool) {
	var d Date
	if len(s) > 0 && s[0] == '-' {
		d.Neg = true
		s = s[1:]
	}
	for i := range d.Digits {
		d.Digits[i] = '#'
	}
	if !digitsAt(s, 0, 4) {
		return Date{}, false
	}
	copy(d.Digits[0:4], s[0:4])
	rest := s[4:]
	for part := 0; part < 2 && len(rest) > 0 && rest[0] == '-'; part++ {
		if !digitsAt(rest, 1, 2) {
			return Date{}, false
		}
		copy(d.Digits[4+2*part:6+2*part], rest[1:3])
		rest = rest[3:]
	}
	switch {
	case rest == "":
	case rest[0] == 'T' || rest[0] == 'Z' || rest[0] == '+':
		// a time or a zone: the date part is what matters
	case rest[0] == '-' && len(rest) == 6 && rest[3] == ':':
		// a negative zone offset after a complete date ("1838-05-12-05:00")
	default:
		return Date{}, false
	}
	if !validMonthDay(d) {
		return Date{}, false
	}
	return d, true
}

// digitsAt reports whether s[i:i+n] consists of decimal digits or '#'.
func digitsAt(s string, i, n int) bool {
	if len(s) < i+n {
		return false
	}
	for _, c := range []byte(s[i : i+n]) {
		if (c < '0' || c > '9') && c != '#' {
			return false
		}
	}
	return true
}

// validMonthDay rejects months above 12 and days above 31 where the digits are known.
func validMonthDay(d Date) bool {
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
