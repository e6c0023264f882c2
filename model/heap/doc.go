// Package heap is the heap's domain: heap logs over time (objects by thread, class, cohort and
// size, pointer distances: seed 001) and heap dumps (classes, instances, retained sizes,
// dominators and paths to a root).
package heap
