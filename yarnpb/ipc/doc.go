// Package ipc is a Hadoop IPC client: the RPC protocol every Hadoop and YARN
// daemon serves, spoken natively.
//
// A connection opens with a preamble, authenticates, names its protocol, and
// then carries any number of concurrent calls, matched to their responses by
// call id:
//
//	+------+---------+---------------+-----------------------------------+
//	| hrpc | version | service class | auth protocol                     |
//	|      | 9       | 0             | 0 none (SIMPLE), 0xDF -33 (SASL)  |
//	+------+---------+---------------+-----------------------------------+
//	SASL exchange        call id -33  (NEGOTIATE, INITIATE, CHALLENGE, ...)
//	connection context   call id -3   (protocol name, SIMPLE's user)
//	calls                call id 0, 1, 2, ...; ping is call id -4
//
// Every packet after the preamble is a frame:
//
//	+----------------------------------------------+
//	| length: uint32, big-endian, of what follows  |
//	+----------------------------------------------+
//	| varint length | RpcRequestHeaderProto        |  (responses:
//	| varint length | RequestHeaderProto           |   RpcResponseHeaderProto,
//	| varint length | request message              |   then the response
//	+----------------------------------------------+   message on success)
//
// When SASL negotiates integrity or privacy (hadoop.rpc.protection), the
// byte stream of frames is itself carried inside SASL WRAP messages in both
// directions: each outer frame holds a protected chunk of the inner stream.
//
// A failed call returns a *RemoteError carrying the server's Java exception
// class and message; errors.Is maps the classes Spindle acts on to sentinel
// errors (ErrApplicationNotFound, ErrStandby, ...). Malformed frames are
// errors naming what was wrong, and no allocation is sized by a length that
// was not checked first.
package ipc
