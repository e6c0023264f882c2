package cost

// ParseCacheSize reads a cache size as the --cache syntax writes it (bytes, or a number with
// k or m for KiB and MiB), so the editor's size field takes what the command line takes.
func ParseCacheSize(s string) (int64, error) { return parseSize(s) }

// CacheSizeText writes a size as the --cache syntax does: 32k, 2m, or bytes when neither
// divides it.
func CacheSizeText(n int64) string { return sizeText(n) }
