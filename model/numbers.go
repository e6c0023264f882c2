package model

// PercentOf is part as a percentage of whole, 0 when whole is 0 (an empty heap or trace: the
// reports show no share rather than NaN).
func PercentOf(part, whole uint64) float64 {
	if whole == 0 {
		return 0
	}
	return 100 * float64(part) / float64(whole)
}

// Ratio is a/b, 0 when b is 0.
func Ratio(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
