package browser

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// run runs one step of the test's in the tab, within actionTimeout.
func run[T any](b *Browser, a chromedp.Action[T]) (T, error) {
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	return chromedp.Run(ctx, a)
}

// Open loads url and waits until the page has loaded (its load event:
// scripts run, images in), returning the HTTP status of the document. A
// page that cannot be reached fails the test.
func (b *Browser) Open(url string) int {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	resp, err := chromedp.RunResponse(ctx, chromedp.Navigate(url))
	if err != nil {
		b.t.Fatalf("opening %s: %v", url, err)
	}
	return int(resp.Status)
}

// URL is the address of the page shown now.
func (b *Browser) URL() string {
	b.t.Helper()
	u, err := run(b, chromedp.Location())
	if err != nil {
		b.t.Fatalf("the page's address: %v", err)
	}
	return u
}

// Text is the page's rendered text, as a user would read (and copy) it:
// what scripts wrote included, what is hidden left out.
func (b *Browser) Text() string {
	b.t.Helper()
	s, err := run(b, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
	if err != nil {
		b.t.Fatalf("reading the page's text at %s: %v", b.URL(), err)
	}
	return s
}

// HTML is the page's DOM now, serialized: the server's HTML as scripts
// have changed it.
func (b *Browser) HTML() string {
	b.t.Helper()
	s, err := run(b, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	if err != nil {
		b.t.Fatalf("reading the page's DOM at %s: %v", b.URL(), err)
	}
	return s
}

// WaitText waits until the page's text holds want (a page that refreshes
// or fills itself in by script), failing the test with the text last
// seen after within.
func (b *Browser) WaitText(want string, within time.Duration) string {
	b.t.Helper()
	text := b.Text()
	for deadline := time.Now().Add(within); !strings.Contains(text, want); text = b.Text() {
		if time.Now().After(deadline) {
			b.t.Fatalf("after %v the page at %s does not say %q:\n%s", within, b.URL(), want, text)
		}
		time.Sleep(200 * time.Millisecond)
	}
	return text
}

// Click clicks, with the mouse, the first link whose text is linkText,
// and waits until the page it leads to has loaded, returning its HTTP
// status. No such link fails the test.
func (b *Browser) Click(linkText string) int {
	b.t.Helper()
	quoted, _ := json.Marshal(linkText)
	mark := `(() => {
		const a = [...document.querySelectorAll("a[href]")].find(a => a.innerText.trim() === ` + string(quoted) + `);
		if (a) a.setAttribute("data-spindle-click", "");
		return !!a;
	})()`
	found, err := run(b, chromedp.Evaluate[bool](mark))
	if err != nil || !found {
		b.t.Fatalf("no link %q on the page at %s (%v):\n%s", linkText, b.URL(), err, b.Text())
	}
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	led, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`a[data-spindle-click]`)))
	if err != nil {
		b.t.Fatalf("following the link %q from %s: %v", linkText, b.URL(), err)
	}
	return int(led.Status)
}

// Screenshot saves the whole page (beyond the window too) as a PNG at
// path, making its directory.
func (b *Browser) Screenshot(path string) {
	b.t.Helper()
	png, err := run(b, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("a screenshot of %s: %v", b.URL(), err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot of %s: %s", b.URL(), path)
}
