package namenode

import (
	"context"
	"fmt"
	"net"
)

// Service is the service a token of this file system is named for, as
// Hadoop's clients name it (SecurityUtil.buildTokenService with
// hadoop.security.token.service.use_ip, its default): ha-hdfs:<nameservice>
// for an HA nameservice, else the NameNode's resolved ip:port. A
// NodeManager localizing from the file system, and the RM renewing the
// token, find it by this name.
func Service(ctx context.Context, addr, nameservice string) (string, error) {
	if nameservice != "" {
		return "ha-hdfs:" + nameservice, nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("NameNode address %q: %w", addr, err)
	}
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil || len(ips) == 0 {
		return "", fmt.Errorf("resolving the NameNode %s for its token's service: %v", host, err)
	}
	// Java resolves to IPv4 first (java.net.preferIPv4Stack, as Hadoop's
	// scripts start it), so a name with both kinds is named by its IPv4.
	ip := ips[0].IP
	for _, a := range ips {
		if a.IP.To4() != nil {
			ip = a.IP
			break
		}
	}
	return net.JoinHostPort(ip.String(), port), nil
}
