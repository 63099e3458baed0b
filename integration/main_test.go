package integration

import (
	"testing"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

func TestMain(m *testing.M) { testcluster.Main(m) }
