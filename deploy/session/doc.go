// Package session is the client side of Spindle's sessions: where a
// session's record and secret are kept for the user who started it
// (state.go), finding a session and whether it has ended (find.go: a
// local one's driver process, a YARN one's application through the RM),
// the requests a client sends it (client.go) over the session's own
// authenticated channel (executor/wire), and following a job to its end
// (follow.go), across a YARN session's ApplicationMaster attempts.
//
// A session is a long-lived application that takes jobs from many
// clients: `spindle session start` starts one and records it;
// `spindle submit --session`, `spindle jobs`, `spindle cancel` and
// `spindle session stop` find it by its id and prove they hold its
// secret. Whoever can read the record's secret file can use the session,
// which is why it is the user's alone (0600 in a 0700 directory).
package session
