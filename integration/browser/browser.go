package browser

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// ExecPath is Debian's chromium, which `make chromium` installs.
const ExecPath = "/usr/bin/chromium"

// windowWidth and windowHeight are the browser window's size: a screenshot's
// width (its height grows with the page).
const windowWidth, windowHeight = 1280, 800

// actionTimeout bounds each step a test asks of the browser: a page that
// never loads fails the test rather than hanging it.
const actionTimeout = 30 * time.Second

// A Browser is one headless chromium, for one test.
type Browser struct {
	t      testing.TB
	ctx    context.Context // the tab's, live until Close
	home   string          // the browser's own: every chromium process names it
	stop   func()
	once   sync.Once
	output *tail // chromium's own output and chromedp's complaints
}

// flags are the command line chromium needs here: headless, as root
// (no sandbox), with no GPU, and with none of the background
// connections (updates, sync, QUIC probes) that a closed network refuses
// and that would make a test's page wait on them. Its environment is its
// own: none of the test's (credentials, proxies), and HOME=home, so that
// its profile, its settings and its crash handler's database are there —
// never in the user's ~/.config — and each of its processes names home
// on its command line.
func flags(home string, out *tail) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.NoInheritEnv,
		chromedp.Env("PATH="+os.Getenv("PATH"), "HOME="+home),
		chromedp.ExecPath(ExecPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(filepath.Join(home, "profile")),
		chromedp.WindowSize(windowWidth, windowHeight),
		chromedp.CombinedOutput(out),
	}
}

// Start starts a headless chromium for t, which ends when t does. A
// machine without chromium fails t, naming the make target that
// installs it.
func Start(t testing.TB) *Browser {
	t.Helper()
	if _, err := os.Stat(ExecPath); err != nil {
		t.Fatalf("no headless browser: %v (`make chromium` installs Debian's chromium)", err)
	}
	// The browser's home is made before Close is registered, so that it is
	// removed after the browser that writes in it has ended.
	b := &Browser{t: t, home: t.TempDir(), output: &tail{}}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), flags(b.home, b.output)...)
	ctx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithLogf(b.output.printf), chromedp.WithErrorf(b.output.printf))
	b.ctx = ctx
	b.stop = func() {
		cancelTab()
		cancelAlloc() // waits for chromium's main process
	}
	t.Cleanup(b.Close)
	// The first action starts the browser, which lives as long as the
	// context of that call: the tab's, not a step's deadline.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v\n%s", ExecPath, err, b.output.String())
	}
	return b
}

// Close ends the browser and every process it started; a test need not
// call it (it runs when the test ends) unless it wants the browser gone
// sooner. A process that will not end fails the test.
func (b *Browser) Close() { b.closeWithin(10 * time.Second) }

// closeWithin is Close, giving chromium's processes within to end. The
// tab and the allocator are canceled first, chromedp's orderly end (its
// goroutines done, the main process reaped); the sweep then ends what
// chromedp does not follow: the main process's children.
func (b *Browser) closeWithin(within time.Duration) {
	b.once.Do(func() {
		b.stop()
		if left := endProcessesUsing(b.home, within); len(left) > 0 {
			b.t.Errorf("chromium processes %v outlived their browser", left)
		}
		if b.t.Failed() {
			b.t.Logf("chromium's output:\n%s", b.output.String())
		}
	})
}
