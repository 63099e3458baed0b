package webui

import (
	"strings"

	"github.com/spindle-yarn/spindle/am/history"
)

// formatAccels says an executor's or an attempt's accelerators besides
// GPUs beside its GPU addresses: "fpga 0,1; tpu 3".
func formatAccels(rs []history.Resource) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.Name + " " + strings.Join(r.Addresses, ",")
	}
	return strings.Join(parts, "; ")
}
