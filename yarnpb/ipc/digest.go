package ipc

import (
	"errors"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/sasl"
)

// newTokenMechanism answers a TOKEN/DIGEST-MD5 offer with token.
var newTokenMechanism = func(token *hadoopcommon.TokenProto, offer *hadoopcommon.RpcSaslProto_SaslAuth, qops []sasl.QOP) (sasl.Mechanism, error) {
	return nil, errors.New("DIGEST-MD5 pending")
}
