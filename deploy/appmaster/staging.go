package appmaster

import (
	"context"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/namenode"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// removeStagingAfterSuccess removes the application's staging directory
// once its job has succeeded (a failed attempt may be retried, and the
// next one needs the files), saying in the log whether it could: a
// directory left behind is no reason to fail a job that succeeded.
func removeStagingAfterSuccess(ctx context.Context, log logrus.FieldLogger, hconf *hadoopconf.Conf, user, dir string, tokens []credentials.Token) {
	var err error
	if method, _ := hconf.Authentication(); method == hadoopconf.AuthKerberos {
		err = removeWithToken(ctx, hconf, user, dir, tokens)
	} else {
		var st *staging.Stager
		if st, err = staging.New(hconf, user, nil); err == nil {
			err = st.Remove(ctx, dir)
			st.Close()
		}
	}
	if err != nil {
		log.WithError(err).WithField("dir", dir).Warn("the staging directory is left behind")
		return
	}
	log.WithField("dir", dir).Info("removed the staging directory")
}

// removeWithToken removes dir on a Kerberos cluster, where the AM may
// have no ticket: with the application's HDFS delegation token.
func removeWithToken(ctx context.Context, hconf *hadoopconf.Conf, user, dir string, tokens []credentials.Token) error {
	nn, err := tokenNameNode(hconf, user, tokens)
	if err != nil {
		return err
	}
	defer nn.Close()
	_, err = nn.Delete(ctx, dir, true)
	return err
}

// tokenNameNode is Spindle's own client of fs.defaultFS's NameNode(s),
// authenticated with the application's HDFS delegation token
// (DIGEST-MD5), which colinmarc/hdfs cannot authenticate with.
func tokenNameNode(hconf *hadoopconf.Conf, user string, tokens []credentials.Token) (*namenode.Client, error) {
	fsURI, err := hconf.DefaultFS()
	if err != nil {
		return nil, err
	}
	addrs, _, err := hconf.NameNodes(fsURI)
	if err != nil {
		return nil, err
	}
	opts, err := yarn.ClientOptions(hconf, user)
	if err != nil {
		return nil, err
	}
	for _, t := range tokens {
		opts.Auth.Tokens = append(opts.Auth.Tokens, t.Proto())
	}
	return namenode.New(addrs, opts)
}
