package ui

// Results of background work wait for Background.Wait, which tests call on their own
// goroutine: see queueResults.
func init() { queueResults = true }
