package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/browser"
	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// The application's tracking page, seen as a user sees it: in a real
// headless browser, through the RM's web proxy at the tracking URL the
// RM reports, while the job runs; its screenshot is left in the
// artifacts directory.
func TestObserveBrowserShowsTheTrackingPageThroughTheProxy(t *testing.T) {
	c := testcluster.Get(t)
	spec := writeSpec(t, "name: browser-tracked\nstages:\n  - {name: s, tasks: 2, command: \"sleep 4\"}\n")
	cmd, buf := startOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.instances=1", "--conf", "spindle.executor.memory=512m", spec)
	defer cmd.Process.Kill() // only when the test fails before the job ends
	var app, proxied string
	waitFor(t, time.Minute, "the RM to report a proxied tracking URL", func() bool {
		if m := submittedID.FindStringSubmatch(buf.String()); m != nil {
			app, proxied = m[1], appTrackingURL(t, c, m[1])
		}
		return strings.Contains(proxied, "/proxy/"+app)
	})

	b := browser.Start(t)
	var text string
	for deadline := time.Now().Add(time.Minute); !strings.Contains(text, "executors 1"); {
		if time.Now().After(deadline) {
			t.Fatalf("after a minute the tracking page %s in the browser does not show the job's executor:\n%s", proxied, text)
		}
		b.Open(proxied) // a user pressing reload: the page is not live yet
		b.PassProxyWarning()
		text = b.Text()
	}
	for _, want := range []string{app + ": job browser-tracked", "tasks 2: ", "executors 1\n  container_"} {
		if !strings.Contains(text, want) {
			t.Errorf("the tracking page in the browser does not say %q:\n%s", want, text)
		}
	}
	if at := b.URL(); !strings.HasPrefix(at, proxied) {
		t.Errorf("the browser shows %s, not the page through the RM's proxy", at)
	}
	b.Screenshot(browser.Artifact(t, "tracking-page.png"))
	b.Close()

	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the job: %v\n%s", err, buf.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("the job did not end within a minute:\n%s", buf.String())
	}
}
