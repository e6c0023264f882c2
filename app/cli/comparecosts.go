package cli

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"androprof/model/cost"
)

// cpiJSON is seed figure 5.2's estimate of a compared item (cost.CompareRow.CPIEstimate), from
// its profile's reference CPI and power: null where that profile has none, never a made-up 0.
type cpiJSON struct {
	CPICycles  *float64 `json:"cpi_cycles"`
	CPITimeS   *float64 `json:"cpi_time_s"`
	CPIPowerW  *float64 `json:"cpi_power_w"`
	CPIEnergyJ *float64 `json:"cpi_energy_j"`
}

func cpiOf(r cost.CompareRow) cpiJSON {
	e := r.CPIEstimate
	if e == nil {
		return cpiJSON{}
	}
	return cpiJSON{&e.Cycles, &e.TimeS, &e.PowerW, &e.EnergyJ}
}

// compareCSVHead is report --compare --csv's header: the JSON's keys, in its order.
var compareCSVHead = []string{"item", "profile", "frequency_ghz", "instructions", "blocks_executed",
	"instructions_per_block", "cycles", "time_s", "energy_j", "instruction_ratio", "cycle_ratio", "energy_ratio",
	"cpi_cycles", "cpi_time_s", "cpi_power_w", "cpi_energy_j", "undefined_share", "unpriced_isas", "warnings"}

// writeCompareCSV writes report --compare's rows as CSV: numbers at full precision, "unknown"
// where a number cannot be known (as chart CSVs write it), the unpriced sets and the warnings
// joined by "; ".
func writeCompareCSV(w io.Writer, rows []cost.CompareRow) error {
	cw := csv.NewWriter(w)
	cw.Write(compareCSVHead)
	for _, r := range rows {
		j := compareJSON(r)
		num := func(v *float64) string {
			if v == nil {
				return "unknown"
			}
			return strconv.FormatFloat(*v, 'g', -1, 64)
		}
		f := func(v float64) string { return num(&v) }
		cw.Write([]string{j.Item, j.Profile, f(j.FrequencyGHz), strconv.FormatInt(j.Instructions, 10),
			strconv.FormatInt(j.Blocks, 10), f(j.InsnsPerBlock), f(j.Cycles), f(j.TimeS), num(j.EnergyJ),
			num(j.InstructionRatio), num(j.CycleRatio), num(j.EnergyRatio), num(j.CPICycles), num(j.CPITimeS),
			num(j.CPIPowerW), num(j.CPIEnergyJ), f(j.UndefinedShare), strings.Join(j.UnpricedISAs, "; "),
			strings.Join(j.Warnings, "; ")})
	}
	cw.Flush()
	return cw.Error()
}

// knownText formats v, or says "unknown" where it is nil.
func knownText(format string, v *float64) string {
	if v == nil {
		return "unknown"
	}
	return orUnknown(format, *v, true)
}
