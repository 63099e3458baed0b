package yarnapp

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// Unavailable is what the RM writes in a report's fields that have no
// value, or that the caller may not see (RMAppImpl's UNAVAILABLE).
const Unavailable = "N/A"

// State is an application's state as `yarn application -status` prints it.
func State(r *hadoopyarn.ApplicationReportProto) string {
	return r.GetYarnApplicationState().String()
}

// FinalStatus drops the proto's APP_ prefix: SUCCEEDED, FAILED, KILLED,
// UNDEFINED.
func FinalStatus(r *hadoopyarn.ApplicationReportProto) string {
	return strings.TrimPrefix(r.GetFinalApplicationStatus().String(), "APP_")
}

// Ended reports whether the application will change no more.
func Ended(r *hadoopyarn.ApplicationReportProto) bool {
	switch r.GetYarnApplicationState() {
	case hadoopyarn.YarnApplicationStateProto_FINISHED, hadoopyarn.YarnApplicationStateProto_FAILED, hadoopyarn.YarnApplicationStateProto_KILLED:
		return true
	}
	return false
}

// WriteReport prints an application report for a person.
func WriteReport(w io.Writer, r *hadoopyarn.ApplicationReportProto) {
	ms := func(t int64) string {
		if t <= 0 {
			return "-"
		}
		return time.UnixMilli(t).UTC().Format(time.RFC3339)
	}
	fmt.Fprintf(w, "Application   %s\n", yarn.ApplicationID(r.GetApplicationId()))
	fmt.Fprintf(w, "Name          %s\n", r.GetName())
	fmt.Fprintf(w, "Type          %s\n", r.GetApplicationType())
	fmt.Fprintf(w, "User          %s\n", r.GetUser())
	fmt.Fprintf(w, "Queue         %s\n", r.GetQueue())
	if tags := r.GetApplicationTags(); len(tags) > 0 {
		fmt.Fprintf(w, "Tags          %s\n", strings.Join(tags, ","))
	}
	fmt.Fprintf(w, "State         %s\n", State(r))
	fmt.Fprintf(w, "Final status  %s\n", FinalStatus(r))
	fmt.Fprintf(w, "Progress      %.0f%%\n", 100*r.GetProgress())
	fmt.Fprintf(w, "Started       %s\n", ms(r.GetStartTime()))
	fmt.Fprintf(w, "Finished      %s\n", ms(r.GetFinishTime()))
	fmt.Fprintf(w, "Tracking URL  %s\n", r.GetTrackingUrl())
	if d := r.GetDiagnostics(); d != "" {
		fmt.Fprintf(w, "Diagnostics   %s\n", d)
	}
}
