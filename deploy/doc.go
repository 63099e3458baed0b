// Package deploy is Spindle's command line: the urfave/cli application that
// cmd/spindle runs.
//
// It holds the commands users type (submit, session, jobs, cancel,
// status, kill, list, history, sim, replay, version; history serves an
// ended application's UI from its event log) and the internal ones
// whose processes live in packages of their own, which it merely calls:
// `spindle am` (deploy/appmaster, the ApplicationMaster in its YARN
// container), `spindle session serve` (deploy/localmode, a local
// session's driver) and `spindle executor` (deploy/executorproc).
// Settings come from properties files in the spark-defaults.conf form,
// --conf overrides and flags (deploy/config), turned into plain values by
// deploy/settings for every process. YARN submission is deploy/yarnapp's,
// finding a session deploy/session's; see README.md, docs/local-mode.md
// and docs/yarn.md.
package deploy
