package yarnapp

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
	"github.com/spindle-yarn/spindle/yarnpb/namenode"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// DelegationTokens fetches, as the connection's Kerberos identity, the
// application's HDFS delegation tokens (the function DelegationTokens).
func (c *Connection) DelegationTokens(ctx context.Context, others string) ([]credentials.Token, error) {
	return DelegationTokens(ctx, c.Conf, c.Identity, others)
}

// DelegationTokens fetches, as id, an HDFS
// delegation token for fs.defaultFS (when it is hdfs://) and for each
// file system of others, a comma-separated list
// (spindle.kerberos.access.hadoopFileSystems), with the RM's
// principal as renewer so that the RM can renew them while the
// application runs. Each is named for its file system as Hadoop names it
// (namenode.Service), under that name as alias.
func DelegationTokens(ctx context.Context, conf *hadoopconf.Conf, id *kerberos.Identity, others string) ([]credentials.Token, error) {
	rmAddrs, err := yarn.Addresses(conf, hadoopconf.RMAddress)
	if err != nil {
		return nil, err
	}
	renewer, err := kerberos.ServerPrincipal(conf, kerberos.ResourceManagerKey, rmAddrs[0])
	if err != nil {
		return nil, fmt.Errorf("the delegation tokens' renewer: %w", err)
	}
	defaultFS, err := conf.DefaultFS()
	if err != nil {
		return nil, err
	}
	var systems []*url.URL
	if defaultFS.Scheme == "hdfs" {
		systems = append(systems, defaultFS)
	}
	for _, s := range strings.Split(others, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		u, err := url.Parse(s)
		if err != nil || u.Scheme != "hdfs" || u.Host == "" {
			return nil, fmt.Errorf("spindle.kerberos.access.hadoopFileSystems: %q is not an hdfs://host[:port] URI", s)
		}
		systems = append(systems, u)
	}
	var tokens []credentials.Token
	seen := map[string]bool{}
	for _, fs := range systems {
		t, err := hdfsToken(ctx, conf, id, fs, renewer)
		if err != nil {
			return nil, fmt.Errorf("an HDFS delegation token for %s: %w", fs, err)
		}
		if !seen[t.Service] {
			seen[t.Service] = true
			tokens = append(tokens, t)
		}
	}
	return tokens, nil
}

func hdfsToken(ctx context.Context, conf *hadoopconf.Conf, id *kerberos.Identity, fs *url.URL, renewer string) (credentials.Token, error) {
	nn, addrs, nameservice, err := dialNameNode(conf, id, fs)
	if err != nil {
		return credentials.Token{}, err
	}
	defer nn.Close()
	p, err := nn.GetDelegationToken(ctx, renewer)
	if err != nil {
		return credentials.Token{}, err
	}
	service, err := namenode.Service(ctx, addrs[0], nameservice)
	if err != nil {
		return credentials.Token{}, err
	}
	p.Service = &service
	return credentials.TokenFromProto(service, p), nil
}

// dialNameNode returns a client of fs's NameNode(s), logged in as id.
func dialNameNode(conf *hadoopconf.Conf, id *kerberos.Identity, fs *url.URL) (nn *namenode.Client, addrs []string, nameservice string, err error) {
	if addrs, nameservice, err = conf.NameNodes(fs); err != nil {
		return nil, nil, "", err
	}
	opts, err := yarn.ClientOptions(conf, id.Principal())
	if err != nil {
		return nil, nil, "", err
	}
	if opts.Auth.Kerberos, err = id.Offers(conf, kerberos.NameNodeKey); err != nil {
		return nil, nil, "", err
	}
	nn, err = namenode.New(addrs, opts)
	return nn, addrs, nameservice, err
}

// RenewalInterval is how long fs.defaultFS's NameNode lets a delegation
// token live between renewals (dfs.namenode.delegation.token.renew-interval,
// which clients cannot read): found as Spark finds it, by fetching a token
// id itself may renew, renewing it, and cancelling it.
func RenewalInterval(ctx context.Context, conf *hadoopconf.Conf, id *kerberos.Identity) (time.Duration, error) {
	fs, err := conf.DefaultFS()
	if err != nil {
		return 0, err
	}
	nn, _, _, err := dialNameNode(conf, id, fs)
	if err != nil {
		return 0, err
	}
	defer nn.Close()
	t, err := nn.GetDelegationToken(ctx, id.Principal())
	if err != nil {
		return 0, fmt.Errorf("a token to learn the renewal interval: %w", err)
	}
	defer nn.CancelDelegationToken(ctx, t)
	ident, err := credentials.ParseDelegationIdentifier(t.GetIdentifier())
	if err != nil {
		return 0, err
	}
	expiry, err := nn.RenewDelegationToken(ctx, t)
	if err != nil {
		return 0, fmt.Errorf("renewing a token to learn the renewal interval: %w", err)
	}
	return expiry.Sub(ident.Issued), nil
}
