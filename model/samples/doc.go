// Package samples is the sampled profile's domain: samples with call stacks from a system
// profiler (perf, simpleperf), built into a profile and queried by thread, symbol, layer and
// time (seed 004's vertical profiles).
package samples
