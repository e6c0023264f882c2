package layers

// SampleSymbol is a (image, symbol) pair frames are named by.
type SampleSymbol struct {
	Image  string
	Symbol string // "" when the recorder had no name
}
