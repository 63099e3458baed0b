package ipc

import (
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/sasl"
)

// tokenMechanism answers a TOKEN/DIGEST-MD5 offer with token: the user name
// and password are the token's identifier and password in base64, and the
// digest-uri comes from the offer (Hadoop sends protocol "" and server id
// "default").
func tokenMechanism(token *hadoopcommon.TokenProto, offer *hadoopcommon.RpcSaslProto_SaslAuth, qops []sasl.QOP) sasl.Mechanism {
	cfg := sasl.TokenConfig(token.GetIdentifier(), token.GetPassword())
	cfg.Protocol = offer.GetProtocol()
	if offer.GetServerId() != "" {
		cfg.ServerID = offer.GetServerId()
	}
	cfg.QOPs = qops
	return sasl.NewDigestMD5(cfg)
}
