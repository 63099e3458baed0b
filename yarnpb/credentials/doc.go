// Package credentials reads and writes Hadoop's token storage file: the file
// HADOOP_TOKEN_FILE_LOCATION names inside a YARN container, and the bytes of
// a container launch context's tokens field. It holds delegation tokens (the
// AMRMToken among them) and secret keys, each under an alias.
//
// A file is the magic "HDTS", a version byte, then the body in one of two
// encodings. Hadoop 3 writes version 0 unless asked otherwise and reads both;
// so does this package (DefaultVersion).
//
// Version 0, Writable (Hadoop's Credentials.write):
//
//	+------+------+--------------+=============+---------------+==============+
//	| HDTS | 0x00 | vint ntokens | token entry | vint nsecrets | secret entry |
//	+------+------+--------------+=============+---------------+==============+
//	  4 B    1 B                   ntokens times                 nsecrets times
//
//	token entry (alias, then Hadoop's Token.write):
//	+------+=======+------+============+------+==========+------+======+------+=========+
//	| vint | alias | vint | identifier | vint | password | vint | kind | vint | service |
//	+------+=======+------+============+------+==========+------+======+------+=========+
//
//	secret entry:
//	+------+=======+------+=======+
//	| vint | alias | vint | value |
//	+------+=======+------+=======+
//
// Each vint is the byte length of what follows it (aliases, kinds and
// services are Hadoop Text: UTF-8 bytes, not validated). A vint is Hadoop's
// WritableUtils variable-length integer, not a protobuf varint; its first
// byte, read as a signed int8 b, says:
//
//	-112 <= b <= 127    the value is b itself (one byte in all)
//	-120 <= b <= -113   a non-negative value in the -(b+112) big-endian bytes that follow
//	-128 <= b <= -121   a negative value: the one's complement of the -(b+120) bytes that follow
//
// Version 1, Protobuf (Hadoop's Credentials.writeProto, which uses
// writeDelimitedTo: the message is length-prefixed, not raw):
//
//	+------+------+------------------+===========================+
//	| HDTS | 0x01 | uvarint length N | CredentialsProto, N bytes |
//	+------+------+------------------+===========================+
//
//	CredentialsProto { repeated CredentialsKVProto tokens = 1;  // alias + token
//	                   repeated CredentialsKVProto secrets = 2; } // alias + secret
//
// Reading is strict where Hadoop would misbehave and faithful where Hadoop
// defines the meaning. Every length and count is checked against the bytes
// left before anything is allocated, input beyond MaxFileSize is refused,
// and bytes after the body, a negative or over-long vint, or a protobuf
// entry without its token or secret are errors, where Hadoop would throw
// something obscure, allocate blindly or carry on. Each is a *FormatError
// naming the item and its byte offset; it may quote an alias, shortened,
// but never an identifier, password or secret. An alias that appears twice
// replaces the earlier entry in place, as Hadoop's alias-keyed map does (the
// later one wins). Unknown protobuf fields are skipped, as Hadoop's reader
// skips them, so files from a later Hadoop still read.
//
// Hadoop writes entries in its hash map's order; this package keeps file
// order on reading and writes entries in slice order, so re-writing what was
// read reproduces Hadoop's bytes exactly, in both versions.
package credentials
