// Package browser drives a real headless browser for the integration
// tests: Debian's chromium (`make chromium` installs it), spoken to over
// its DevTools protocol with chromedp, so a page is seen as a user sees
// it — its JavaScript run, its links followed by a mouse click, the RM's
// web proxy passed as a person would pass it — and saved as a screenshot.
//
// Each Browser belongs to one test: it has its own empty profile under
// the test's temporary directory and ends, with every process it
// started, when the test does. Screenshots go to the artifacts directory
// ($SPINDLE_TEST_ARTIFACTS, by default integration/.artifacts/), where a
// failed CI run leaves them to be looked at.
package browser
