package cli

import (
	"context"
	"testing"

	"androprof/controller"
	"androprof/model/samples"
)

// One chart per question (issue 25): for a sampled run, every chart `androprof chart` writes is
// the one controller.SampleDrawing draws, the function behind the window's Layers and Flame
// tabs (view/samples checks that the tabs show it), for the selection the flags name.
// Compared as files, byte for byte.
func TestSampleChartsAgree(t *testing.T) {
	t.Parallel()
	db, ws := importedRuns(t, map[string]string{"java": javaScript})
	ctx := context.Background()
	type spec = controller.SampleChartSpec
	cases := []struct {
		flags []string
		sel   samples.SampleSelection
		app   []string
		spec  spec
	}{
		{nil, samples.SampleSelection{}, nil, spec{By: controller.SampleByLayerTime}},
		{[]string{"--by", "layer-time", "--counts", "--buckets", "20", "--threads", "java"},
			samples.SampleSelection{ThreadNames: []string{"java"}}, nil, spec{By: controller.SampleByLayerTime, Buckets: 20, Counts: true}},
		{[]string{"--by", "layer", "--tid", "32765"}, samples.SampleSelection{TIDs: []int{32765}}, nil, spec{By: controller.SampleByLayer}},
		{[]string{"--by", "image", "--app", "Spin"}, samples.SampleSelection{}, []string{"Spin"}, spec{By: controller.SampleByImage}},
		{[]string{"--by", "symbol", "--focus", "Spin"}, samples.SampleSelection{Focus: []string{"Spin"}}, nil, spec{By: controller.SampleBySymbol}},
		{[]string{"--by", "component", "--from", "0.5", "--to", "1"}, samples.SampleSelection{FromNS: 5e8, ToNS: 1e9}, nil, spec{By: controller.SampleByComponent}},
		{[]string{"--by", "thread"}, samples.SampleSelection{}, nil, spec{By: controller.SampleByThread}},
		{[]string{"--by", "flame", "--threads", "C*"}, samples.SampleSelection{ThreadNames: []string{"C*"}}, nil, spec{By: controller.SampleByFlame}},
	}
	for _, c := range cases {
		set, err := ws.Samples.Select(ctx, "java", c.sel, c.app)
		if err != nil {
			t.Fatal(err)
		}
		want, err := controller.SampleDrawing(set, "java", c.spec)
		if err != nil {
			t.Fatalf("%v: the window's chart: %v", c.flags, err)
		}
		if diff := chartsDiffer(t, db, want, append([]string{"--run", "java"}, c.flags...)...); diff != "" {
			t.Errorf("androprof chart %v is not the window's %+v chart: %s", c.flags, c.spec, diff)
		}
	}
}
