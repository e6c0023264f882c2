package controller

import "androprof/model"

// RunService is the service of one kind of run (Workspace.Costs, Methods, HeapLogs,
// HeapDumps, Samples): it loads, caches and answers the questions of its kind's runs, for the
// window and the command line alike. What concerns every kind goes through this interface,
// so a new kind of run is a new service and one entry in NewWorkspace, not a case in each
// switch on the kind.
type RunService interface {
	Kind() model.RunKind // the kind of run it reads
	forget(run string)   // drops what it cached of run (re-imported or deleted)
}

// Service is the service that reads runs of kind, or nil in a session without a database or
// for a kind this build does not know.
func (w *Workspace) Service(kind model.RunKind) RunService {
	return w.services[kind]
}

// Kind is the kind of run MethodAnalysis reads: method traces.
func (a *MethodAnalysis) Kind() model.RunKind { return model.RunKindMethods }

// Kind is the kind of run SampleAnalysis reads: sampled runs.
func (a *SampleAnalysis) Kind() model.RunKind { return model.RunKindSamples }
