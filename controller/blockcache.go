package controller

import (
	"context"

	"androprof/model/cost"
)

// loadCache fills a run's cache simulation in (RunData.Geometry, GeometrySource and Cache,
// parallel to Blocks); a run that was not simulated keeps a zero geometry and nil Cache.
func (a *Analysis) loadCache(ctx context.Context, d *cost.RunData) error {
	g, source, perBlock, err := a.store.RunCache(ctx, d.Info.Name)
	if err != nil || g.IsZero() {
		return err
	}
	d.Geometry, d.GeometrySource = g, source
	d.Cache = make([]cost.CacheCounts, len(d.Blocks))
	for i, b := range d.Blocks {
		c := perBlock[b.ID] // a block no thread of the simulation missed in has only fetches
		c.Fetches = b.Executions * int64(b.Insns)
		d.Cache[i] = c
	}
	return nil
}
