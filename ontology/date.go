package ontology

import "github.com/trawl-dev/trawl/graph"

// The storage encoding of dates (graph.Date) in the date index ('A').

// packDate encodes a date in 33 bits: the sign, then 4 bits per character ('#' = 0,
// digit d = d+1), so that packed values sort like the index keys ('+' < '-', '#' < '0').
func packDate(d graph.Date) uint64 {
	var v uint64
	if d.Neg {
		v = 1
	}
	for _, c := range d.Digits {
		x := uint64(0)
		if c != '#' {
			x = uint64(c-'0') + 1
		}
		v = v<<4 | x
	}
	return v
}

func unpackDate(v uint64) graph.Date {
	var d graph.Date
	for i := 7; i >= 0; i-- {
		x := byte(v & 0xF)
		v >>= 4
		if x == 0 {
			d.Digits[i] = '#'
		} else {
			d.Digits[i] = '0' + x - 1
		}
	}
	d.Neg = v&1 == 1
	return d
}

// yearKey is the index key of a date's year: the sign and the 4 year characters.
func yearKey(d graph.Date) [5]byte {
	var k [5]byte
	if d.Neg {
		k[0] = '-'
	} else {
		k[0] = '+'
	}
	copy(k[1:], d.Digits[0:4])
	return k
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
