// Package deploy is Spindle's command line: the urfave/cli application that
// cmd/spindle runs.
//
// It holds the commands users type (submit, status, kill, list, sim, version),
// the internal ones YARN containers run (am, executor), and the configuration
// they share: properties files in the spark-defaults.conf form, --conf
// overrides, and spark.* keys accepted as aliases of spindle.* keys. Submission
// to YARN (staging files, building the ApplicationMaster's launch context) and
// local mode live here too; see README.md, docs/local-mode.md and
// docs/yarn.md.
package deploy
