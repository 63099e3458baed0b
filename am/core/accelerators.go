package core

import (
	"fmt"

	"github.com/spindle-yarn/spindle/scheduler"
)

// Accelerators besides GPUs (FPGAs, TPUs) reach the core as the profiles'
// and tasks' scheduler.Accelerators (Config.TaskAccels), each container's
// indices of them (device_indices.go) and each executor's addresses
// (Registration.Accels); these say them in messages.

// assignedText is ", " and each accelerator's addresses, or "" for none.
func assignedText(a []scheduler.Assigned) string {
	s := ""
	for _, x := range a {
		s += fmt.Sprintf(", %s %v", x.Name, x.Addresses)
	}
	return s
}

// accelsText is ", " and a's amounts, or "" for none.
func accelsText(a scheduler.Accelerators) string {
	if a.Len() == 0 {
		return ""
	}
	return ", " + a.String()
}
