package records

import "math"

// The informativeness measures of FOREST (thesis ch. 2 §6.2.2). x is the number of
// signifier occurrences in an element's text (with multiplicity), y the number of other
// terms; X and Y the same counts for the whole page.

// Jeffreys returns J, the pessimistic end of the 1-σ interval around Jeffreys' add-half
// estimate of the signifier density (eq. 2.2):
//
//	J = max(0, (x + ½ − sqrt((x+½)(y+½)/N)) / (N+1)),  N = x + y.
//
// J(1,0) ≈ 0.32. J is 0 for an element without terms.
func Jeffreys(x, y float64) float64 {
	n := x + y
	if n <= 0 {
		return 0
	}
	j := (x + 0.5 - math.Sqrt((x+0.5)*(y+0.5)/n)) / (n + 1)
	return math.Max(0, j)
}

// Unexpectedness returns U, the difference between the generation and the description
// complexity of an element's signifier counts (eq. 2.3), in nats:
//
//	U = (x+y)·ln(X+Y) − x·ln X − y·ln Y,  with 0·ln 0 = 0.
//
// The thesis says "bits", but its own example (X=20, Y=100: a node (10, 26) has U ≈ 23,
// a node (3, 1) U ≈ 6) holds only with the natural logarithm. U is 0 when the page has
// no terms.
func Unexpectedness(x, y, bigX, bigY float64) float64 {
	if bigX+bigY <= 0 {
		return 0
	}
	u := (x+y)*math.Log(bigX+bigY) - xlogy(x, bigX) - xlogy(y, bigY)
	return math.Max(0, u)
}

// xlogy returns a·ln b with 0·ln 0 = 0.
func xlogy(a, b float64) float64 {
	if a == 0 {
		return 0
	}
	if b <= 0 {
		return 0
	}
	return a * math.Log(b)
}

// Informativeness returns I = J × U (eq. 2.4) for one element.
func Informativeness(x, y, bigX, bigY float64) float64 {
	return Jeffreys(x, y) * Unexpectedness(x, y, bigX, bigY)
}
