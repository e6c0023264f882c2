package analysis

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2/container"
)

// The README's user journeys told a person to press Ctrl+6 for Compare and Ctrl+5 for Estimate
// after the tabs had moved (they were Ctrl+8 and Ctrl+7). Every "Tab (Ctrl+N)" the journeys
// name must be the N-th tab of one of the window's tab sets, so a moved tab fails here.
func TestReadmeJourneyKeysNameTheirTabs(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, journeys, ok := strings.Cut(string(readme), "## User journeys")
	if !ok {
		t.Fatal("README has no '## User journeys' section")
	}
	journeys, _, _ = strings.Cut(journeys, "\n## ")

	v, _ := openAnalysis(t)
	sets := map[string]*container.AppTabs{"emulator": v.Tabs, "method": v.Methods.Tabs, "heap log": v.Heap.Tabs,
		"heap dump": v.Dump.Tabs, "sampled": v.Samples.Tabs}
	// "**Compare** tab (Ctrl+8)", "Retained (Ctrl+6)", "Ctrl+7 (Estimate)"
	named := regexp.MustCompile(`(?:\*\*)?([A-Z][A-Za-z/]+(?: [a-z]+)?)(?:\*\*)?(?: tab)?\s+\(Ctrl\+(\d)\)|Ctrl\+(\d)\s+\(([A-Z][A-Za-z/]+(?: [a-z]+)?)\)`)
	found := 0
	for _, m := range named.FindAllStringSubmatch(journeys, -1) {
		tab, key := m[1], m[2]
		if tab == "" {
			tab, key = m[4], m[3]
		}
		n, _ := strconv.Atoi(key)
		var at []string
		for set, tabs := range sets {
			if n <= len(tabs.Items) && tabs.Items[n-1].Text == tab {
				at = append(at, set)
			}
		}
		if len(at) == 0 {
			t.Errorf("README journeys say %q: no tab set has %q as tab %d", m[0], tab, n)
		}
		found++
	}
	if found < 9 {
		t.Fatalf("found %d tab keys in the journeys; the pattern no longer reads them", found)
	}
	// Every Ctrl+digit the journeys name says which tab it is.
	for _, m := range regexp.MustCompile(`Ctrl\+\d`).FindAllStringIndex(journeys, -1) {
		around := journeys[max(0, m[0]-30):min(len(journeys), m[1]+20)]
		if !named.MatchString(around) && !slices.Contains([]string{"Ctrl+1…9"}, journeys[m[0]:m[1]]) {
			t.Errorf("README journeys name %s without its tab: %q", journeys[m[0]:m[1]], around)
		}
	}
}
