package methods

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"androprof/model/calls"
)

// A regular expression in the find box keeps the rows it matches (by raw or readable name) and
// the total line says how many of all and their exclusive time's share on each clock, as the
// report's rows add up; plain text keeps today's line.
func TestFindBoxRegexShare(t *testing.T) {
	v, ma := openMethods(t)
	p := v.Methods.Profile
	rep, err := ma.Report(context.Background(), calls.MethodReportOptions{Run: "jag", By: calls.ByMethod})
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^GameScreen\.paint|Particle\.draw`)
	var n int
	var cpu, wall uint64
	for _, r := range rep.Rows {
		if re.MatchString(r.Key) || re.MatchString(r.Readable.Full()) {
			n++
			cpu += r.Times.ExclusiveCPU
			wall += r.Times.ExclusiveWall
		}
	}
	p.Find.SetText(re.String())
	v.Wait()
	if len(p.Table.Rows()) != n || n == 0 {
		t.Fatalf("find %s: %d rows, want %d", re, len(p.Table.Rows()), n)
	}
	want := fmt.Sprintf("%d of %d rows match /%s/, exclusive time · CPU %s (%.1f%% of %s) · real %s (%.1f%% of %s)", n, len(rep.Rows), re,
		micros(cpu), 100*float64(cpu)/float64(rep.TotalCPU), micros(rep.TotalCPU), micros(wall), 100*float64(wall)/float64(rep.TotalWall), micros(rep.TotalWall))
	if got := p.Table.Count.Text; got != want {
		t.Errorf("total line %q\nwant       %q", got, want)
	}
	p.Find.SetText("particle.")
	v.Wait()
	if got := p.Table.Count.Text; !strings.HasSuffix(got, "(the 100% of the percentages)") {
		t.Errorf("plain text's total line: %q", got)
	}
	p.Find.SetText("paint(float)") // a readable name, parentheses and all, is still found
	v.Wait()
	if len(p.Table.Rows()) == 0 {
		t.Error("paint(float) finds no row")
	}
}
