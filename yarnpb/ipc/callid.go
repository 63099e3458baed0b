package ipc

// Call ids below zero belong to the connection, not to calls.
const (
	saslCallID    int32 = -33
	contextCallID int32 = -3
	pingCallID    int32 = -4
)

// Responses carry the call id unsigned: -33 arrives as 2^32-33.
const saslCallIDUnsigned = uint32(1<<32 + int64(saslCallID))
