package view

// Results of background work wait for AnalysisView.Wait, which tests call on their own
// goroutine: see queueResults.
func init() { queueResults = true }
