package isaprofiles

//go:generate go run ./internal/builtingen/cmd
