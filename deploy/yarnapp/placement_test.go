package yarnapp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

func confPage(handler string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><configuration>
<property><name>yarn.resourcemanager.hostname</name><value>rm</value><final>false</final><source>yarn-default.xml</source></property>
<property><name>` + PlacementHandlerKey + `</name><value>` + handler + `</value><final>false</final><source>yarn-site.xml</source></property>
</configuration>`
}

func TestConfValue(t *testing.T) {
	if v, err := ConfValue(strings.NewReader(confPage("scheduler")), PlacementHandlerKey); err != nil || v != "scheduler" {
		t.Errorf("%q, %v", v, err)
	}
	if v, err := ConfValue(strings.NewReader("<configuration></configuration>"), PlacementHandlerKey); err != nil || v != "" {
		t.Errorf("absent: %q, %v", v, err)
	}
	for _, bad := range []string{"", "<html>nope</html>", "<configuration><property><name>x</name>"} {
		if _, err := ConfValue(strings.NewReader(bad), PlacementHandlerKey); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// Submit asks the RM's web app, not the client's yarn-site.xml, which
// here says the opposite of the RM; an RM out of reach leaves the
// client's value to decide.
func TestCheckPlacementAsksTheRM(t *testing.T) {
	handler := "disabled"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/conf" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, confPage(handler))
	}))
	defer srv.Close()
	hconf := hadoopconf.New(hadoopconf.Env{})
	hconf.Set(string(hadoopconf.RMWebappAddress), strings.TrimPrefix(srv.URL, "http://"))
	hconf.Set(PlacementHandlerKey, "placement-processor")
	spread := yarn.Placement{Affinity: yarn.AffinitySpread}
	log := logrus.New()
	role := func(p scheduler.Profile) string { return fmt.Sprintf("executor of profile %d", p.ID) }
	err := checkPlacement(context.Background(), spread, "", nil, role, hconf, log)
	if err == nil || !strings.Contains(err.Error(), "handler is disabled") || !strings.Contains(err.Error(), "spindle.yarn.executor.maxPerNode") {
		t.Errorf("the RM's handler disabled: %v, want it refused naming the keys", err)
	}
	if err := checkPlacement(context.Background(), yarn.Placement{}, "", nil, role, hconf, log); err != nil {
		t.Errorf("nothing asked: %v", err)
	}
	handler = "placement-processor"
	if err := checkPlacement(context.Background(), spread, "", nil, role, hconf, log); err != nil {
		t.Errorf("the RM's handler placement-processor: %v", err)
	}
	// A stage's label beside constraints is their node partition, which
	// every handler that places takes.
	labelled := []scheduler.Profile{{ID: 0}, {ID: 1, NodeLabel: "gpu-t4"}}
	if err := checkPlacement(context.Background(), spread, "", labelled, role, hconf, log); err != nil {
		t.Errorf("a labelled stage beside constraints: %v", err)
	}
	// A stage's own placement is checked as the application's is, and
	// refused naming the stage: the scheduler handler takes no pack.
	handler = "scheduler"
	placed := []scheduler.Profile{{ID: 0}, {ID: 1, Placement: scheduler.Placement{MaxPerNode: 1}}, {ID: 2, Placement: scheduler.Placement{Affinity: scheduler.Pack}}}
	err = checkPlacement(context.Background(), yarn.Placement{}, "", placed, role, hconf, log)
	if err == nil || !strings.Contains(err.Error(), "the placement pack of the executor of profile 2 ask the ResourceManager for more than anti-affinity") {
		t.Errorf("a packed stage, the scheduler handler: %v, want it refused naming the stage", err)
	}
	if err := checkPlacement(context.Background(), yarn.Placement{}, "", placed[:2], role, hconf, log); err != nil {
		t.Errorf("a stage of maxPerNode=1, the scheduler handler: %v", err)
	}
	handler = "disabled"
	if err := checkPlacement(context.Background(), yarn.Placement{}, "", placed[:2], role, hconf, log); err == nil || !strings.Contains(err.Error(), "the placement maxPerNode=1 of the executor of profile 1") {
		t.Errorf("a stage of maxPerNode=1, placement disabled: %v, want it refused naming the stage", err)
	}
	srv.Close()
	hconf.Set(PlacementHandlerKey, "disabled")
	if err := checkPlacement(context.Background(), spread, "", nil, role, hconf, log); err == nil {
		t.Error("RM out of reach, client's yarn-site says disabled: accepted")
	}
}
