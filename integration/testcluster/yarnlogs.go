package testcluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"time"
)

// aggregationPoll is how often YarnLogs asks the RM whether an
// application's logs are aggregated: NodeManagers report it in their
// heartbeats, a second apart.
const aggregationPoll = 200 * time.Millisecond

// maxAppJSON bounds the RM's answer about one application.
const maxAppJSON = 1 << 20

// YarnLogs runs Hadoop's own `yarn logs -applicationId app` (LogsCLI, from
// the harness's Hadoop client jars, with the cluster's client
// configuration) once the RM says every NodeManager has uploaded the
// application's logs, and returns what it printed. Until then LogsCLI
// prints what the nodes done so far uploaded, or nothing, so it waits for
// the RM's word rather than for output; within bounds the wait and the
// run together. Aggregation starts only once the application has ended.
func (c *Cluster) YarnLogs(app string, within time.Duration) (string, error) {
	if !c.LogAggregation {
		return "", fmt.Errorf("the cluster in %s aggregates no logs (LOG_AGGREGATION=0)", c.Dir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	if err := waitForAggregation(ctx, "http://"+c.RMWebAddress, app); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, Script(), "yarn-logs", c.Dir, "-applicationId", app)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("yarn logs -applicationId %s: %v\n%s", app, err, stderr.Bytes())
	}
	return stdout.String(), nil
}

// waitForAggregation polls the RM's REST API at rmWeb until app's
// logAggregationStatus is SUCCEEDED, and fails at once on a status that
// will never become it.
func waitForAggregation(ctx context.Context, rmWeb, app string) error {
	last := "no answer"
	for {
		status, err := aggregationStatus(ctx, rmWeb, app)
		switch {
		case err != nil:
			last = err.Error()
		case status == "SUCCEEDED":
			return nil
		case status == "FAILED" || status == "TIME_OUT" || status == "DISABLED":
			return fmt.Errorf("the RM says log aggregation of %s is %s (NodeManagers' log: nodemanager.log)", app, status)
		default:
			last = "logAggregationStatus " + status
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the logs of %s were not aggregated in time: last, %s", app, last)
		case <-time.After(aggregationPoll):
		}
	}
}

// aggregationStatus is app's logAggregationStatus in the RM's
// /ws/v1/cluster/apps/APP: NOT_START and RUNNING while the application
// runs or its nodes upload, then SUCCEEDED, FAILED or TIME_OUT.
func aggregationStatus(ctx context.Context, rmWeb, app string) (string, error) {
	url := rmWeb + "/ws/v1/cluster/apps/" + app
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAppJSON))
	if err != nil {
		return "", fmt.Errorf("GET %s: %v", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET %s: %s: %s", url, resp.Status, strings.TrimSpace(string(body)))
	}
	var got struct {
		App struct {
			LogAggregationStatus string `json:"logAggregationStatus"`
		} `json:"app"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		return "", fmt.Errorf("GET %s: %v", url, err)
	}
	return got.App.LogAggregationStatus, nil
}
