// Package webui serves an application's web UI and REST API from its
// history (am/history's Store): the session, its jobs, a job's stages, a
// stage's tasks (paged), pools and executors, as HTML pages for people
// and JSON under /api/v1/ for scripts (docs/ui.md). The same handler
// serves a running application, where Live adds what only the scheduler
// knows now (why work waits, pools in fair-share order), and an ended
// one from its event log (`spindle history`).
//
// Pages are server-rendered Go templates: they work with JavaScript off,
// refresh themselves with a meta refresh while the application runs, and
// link under Base, so that they work behind the RM's web proxy
// (/proxy/<app>/). Only GET and HEAD are served: nothing here changes
// the application. Guarding it (the proxy only, view ACLs) is the
// caller's: am.WebAccess on YARN, a loopback address locally.
package webui
