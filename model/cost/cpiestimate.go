package cost

// Estimable tells whether the reference data carries what seed figure 5.2's estimate needs for
// both time and energy: a measured CPI and the processor's power. Without either the estimate
// is "unknown", never a number made up from zeros.
func (r Reference) Estimable() bool { return r.CPI > 0 && r.ProcessorPowerW > 0 }

// ReferenceEstimate is seed figure 5.2's estimate (EstimateCPI) of instructions run at
// frequencyGHz (the clock a report priced them at; 0 takes the reference's own, else
// DefaultFrequencyGHz) from a profile's reference data, so a comparison can hold it beside the
// per-category estimate row by row. ok is false when r is not Estimable.
func ReferenceEstimate(r Reference, instructions int64, frequencyGHz float64) (e Estimate, ok bool) {
	if !r.Estimable() {
		return Estimate{}, false
	}
	in := InputFromReference(r, float64(instructions))
	switch {
	case frequencyGHz > 0:
		in.FrequencyGHz = frequencyGHz
	case in.FrequencyGHz <= 0:
		in.FrequencyGHz = DefaultFrequencyGHz
	}
	e, err := EstimateCPI(in)
	return e, err == nil
}
