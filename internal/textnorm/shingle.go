package textnorm

// KGrams returns the byte k-grams of s as a multiset (k-gram → count). A string shorter
// than k is its own single gram, so short literals still compare.
func KGrams(s string, k int) map[string]int {
	m := make(map[string]int, max(len(s)-k+1, 1))
	if s == "" {
		return m
	}
	if len(s) < k {
		m[s] = 1
		return m
	}
	for i := 0; i+k <= len(s); i++ {
		m[s[i:i+k]]++
	}
	return m
}

// Dice returns the multiset k-gram Dice coefficient of a and b:
// 2·|common k-grams| / (|kgrams(a)| + |kgrams(b)|), computed on the bytes as given (the
// caller normalises first). Two empty strings score 0.
func Dice(a, b string, k int) float64 {
	if a == "" || b == "" {
		return 0
	}
	if a == b {
		return 1
	}
	ga := KGrams(a, k)
	na := 0
	for _, c := range ga {
		na += c
	}
	nb, common := 0, 0
	if len(b) < k {
		nb = 1
		if ga[b] > 0 {
			common = 1
		}
	} else {
		for i := 0; i+k <= len(b); i++ {
			g := b[i : i+k]
			nb++
			if ga[g] > 0 {
				ga[g]--
				common++
			}
		}
	}
	return 2 * float64(common) / float64(na+nb)
}
