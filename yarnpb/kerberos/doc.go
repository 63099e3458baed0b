// Package kerberos logs a Hadoop client in to Kerberos and answers a
// server's KERBEROS offer on Hadoop RPC with SASL GSSAPI.
//
// A client logs in once (LogIn) from what Hadoop's own clients use: a
// keytab and a principal, or the ticket cache kinit wrote (KRB5CCNAME, FILE:
// caches only), with krb5.conf from KRB5_CONFIG or /etc/krb5.conf. The
// Identity it gets then opens GSSAPI exchanges for ipc.Auth.Kerberos: it
// checks the server's offered principal against the protocol's key
// (yarn.resourcemanager.principal, dfs.namenode.kerberos.principal) with
// _HOST resolved as Hadoop resolves it, and asks the KDC for a service
// ticket.
//
// The caller's duties:
//   - Call Close when done: a keytab identity renews its ticket in the
//     background until then.
//   - Put Identity.Principal (the full principal, alice@REALM) in the
//     connection context as the user: Hadoop's server treats anything else
//     as impersonation.
//
// Every error says what to do about it: run kinit, set
// spindle.kerberos.principal and spindle.kerberos.keytab, check the KDC
// named in krb5.conf.
package kerberos
