// Package webui serves an application's web UI and REST API from its
// history (am/history's Store): the session, its jobs, a job's stages, a
// stage's summary and tasks (paged, sorted on the server) and a gang
// stage's ranks and runs, a task's every attempt, pools, executors and
// the application's settings (secrets redacted by its driver before they
// reach the Store), as HTML pages for people and JSON under /api/v1/ for
// scripts (docs/ui.md). The same handler
// serves a running application, where Live adds what only the scheduler
// knows now (why work waits, pools in fair-share order), and an ended
// one from its event log (`spindle history`).
//
// Pages are server-rendered Go templates: they work with JavaScript off,
// refresh themselves with a meta refresh while the application runs, and
// link under Base, so that they work behind the RM's web proxy
// (/proxy/<app>/). Only GET and HEAD are served: nothing here changes
// the application.
//
// A running driver serves it behind its tracking page (TrackingHandler),
// beside the scheduler's status now (/status.txt, /status.json) and its
// Prometheus metrics, taking them as values so that this package knows
// nothing of the driver. Guarding the page is WebAccess on YARN (the
// RM's web proxy only, the application's view ACLs), and OwnerOnly
// locally (a loopback address, and the token of the URL printed to the
// owner's terminal, exchanged for a cookie, as Jupyter does), each
// wrapping the whole handler, every path of it.
package webui
