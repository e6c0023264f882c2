package cost

import "strconv"

// ClockNote says, at a clock other than the profile's own, why the energy follows the clock:
// energy is power × time, and the profile's power stays what it was measured at while a faster
// clock shortens the time, so doubling the clock halves the energy, which no real chip does.
// It is "" at the profile's own clock, and when no clock was chosen.
func ClockNote(referenceGHz, frequencyGHz float64, assumed bool) string {
	if assumed || frequencyGHz <= 0 || frequencyGHz == referenceGHz {
		return ""
	}
	ghz := func(f float64) string { return strconv.FormatFloat(f, 'g', 4, 64) + " GHz" }
	if referenceGHz <= 0 {
		return "energy = power × time at the profile's power, held whatever the clock: a faster clock " +
			"shortens the time and so the energy; a real chip draws more power at a higher clock."
	}
	return "energy = power × time at the profile's power, measured at " + ghz(referenceGHz) + " and held at " +
		ghz(frequencyGHz) + ": the time, and so the energy, is " + strconv.FormatFloat(referenceGHz/frequencyGHz, 'g', 3, 64) +
		"× that at " + ghz(referenceGHz) + "; a real chip draws more power at a higher clock."
}

// ClockNote is the report's: see ClockNote.
func (r *Report) ClockNote() string {
	return ClockNote(r.ReferenceGHz, r.FrequencyGHz, r.FrequencyAssumed)
}
