package samples

import (
	"testing"

	"androprof/internal/viewtest"
)

func TestMain(m *testing.M) { viewtest.Main(m) }
