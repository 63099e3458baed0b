package testcluster

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// rmAnswering serves /ws/v1/cluster/apps/APP with the statuses given, one
// per request, the last one thereafter.
func rmAnswering(t *testing.T, statuses ...string) (*httptest.Server, *atomic.Int32) {
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ws/v1/cluster/apps/application_1_0001" {
			http.NotFound(w, r)
			return
		}
		n := int(asked.Add(1))
		fmt.Fprintf(w, `{"app":{"id":"application_1_0001","logAggregationStatus":%q}}`, statuses[min(n, len(statuses))-1])
	}))
	t.Cleanup(srv.Close)
	return srv, &asked
}

// The wait lasts until the RM says SUCCEEDED: an application still
// running, or whose nodes are still uploading, is not done.
func TestWaitForAggregationWaitsForSucceeded(t *testing.T) {
	srv, asked := rmAnswering(t, "NOT_START", "RUNNING", "RUNNING", "SUCCEEDED")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := waitForAggregation(ctx, srv.URL, "application_1_0001"); err != nil {
		t.Fatal(err)
	}
	if n := asked.Load(); n != 4 {
		t.Errorf("asked the RM %d times, want 4 (until SUCCEEDED)", n)
	}
}

// A status that cannot become SUCCEEDED ends the wait at once.
func TestWaitForAggregationStopsOnFailure(t *testing.T) {
	for _, status := range []string{"FAILED", "TIME_OUT", "DISABLED"} {
		srv, asked := rmAnswering(t, "RUNNING", status)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := waitForAggregation(ctx, srv.URL, "application_1_0001")
		cancel()
		if err == nil || !strings.Contains(err.Error(), "log aggregation of application_1_0001 is "+status) {
			t.Errorf("%s: got %v", status, err)
		}
		if n := asked.Load(); n != 2 {
			t.Errorf("%s: asked the RM %d times, want 2", status, n)
		}
	}
}

// Past the deadline the error says what the RM last answered.
func TestWaitForAggregationGivesUpAtItsDeadline(t *testing.T) {
	srv, _ := rmAnswering(t, "RUNNING_WITH_FAILURE")
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := waitForAggregation(ctx, srv.URL, "application_1_0001")
	if err == nil || !strings.Contains(err.Error(), "not aggregated in time: last, logAggregationStatus RUNNING_WITH_FAILURE") {
		t.Fatalf("got %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err = waitForAggregation(ctx, srv.URL, "application_1_0002")
	if err == nil || !strings.Contains(err.Error(), "404 Not Found") {
		t.Fatalf("an application the RM does not know: got %v", err)
	}
}

// A cluster without log aggregation says so rather than waiting.
func TestYarnLogsNeedsLogAggregation(t *testing.T) {
	c := &Cluster{Dir: "/tmp/somewhere"}
	if _, err := c.YarnLogs("application_1_0001", time.Second); err == nil || !strings.Contains(err.Error(), "LOG_AGGREGATION=0") {
		t.Fatalf("got %v", err)
	}
}
