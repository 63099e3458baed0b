// Package sasl holds the SASL client mechanisms Hadoop's RPC authenticates
// with, behind one small interface that the IPC client drives: DIGEST-MD5
// for tokens (RFC 2831, with the integrity and confidentiality layers that
// hadoop.rpc.protection=integrity|privacy require). Kerberos (GSSAPI) plugs
// in behind the same interface.
package sasl
