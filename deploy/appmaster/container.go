package appmaster

import (
	"errors"
	"fmt"
	"net"
	"os"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// container is what the AM's YARN container gives it: Hadoop's
// configuration, its user, the NodeManager's host, and its credentials.
type container struct {
	hconf *hadoopconf.Conf
	user  string
	host  string // NM_HOST
	// attempt is the AM's attempt of the application, from its own
	// container's id (CONTAINER_ID); 0 when that does not read.
	attempt int
	// self is that container, and node its node's NodeId (NM_HOST and
	// NM_PORT): the AM hands the application over when the node is
	// being decommissioned (am/core's handover.go). Nil and empty when
	// they do not read.
	self  *hadoopyarn.ContainerIdProto
	node  string
	creds *credentials.Credentials
	// secret is the application secret executors authenticate with;
	// amrm the AM's token for the RM.
	secret []byte
	amrm   credentials.Token
}

func readContainer() (container, error) {
	hconf, err := hadoopconf.FromEnvironment(os.LookupEnv)
	if err != nil {
		return container{}, err
	}
	creds, err := credentials.FromEnvironment()
	if err != nil {
		return container{}, err
	}
	secret, ok := creds.FindSecret(executor.SecretAlias)
	if !ok {
		return container{}, errors.New("the container's credentials hold no application secret")
	}
	amrm := creds.TokensOfKind(yarn.AMRMTokenKind)
	if len(amrm) == 0 {
		return container{}, errors.New("the container's credentials hold no AMRMToken")
	}
	host, _ := os.LookupEnv("NM_HOST")
	c := container{hconf: hconf, user: yarnapp.User(os.LookupEnv), host: host, creds: creds, secret: secret, amrm: amrm[0]}
	if attempt, err := ownAttempt(); err == nil {
		c.attempt = int(attempt.GetAttemptId())
	}
	c.self, c.node = ownContainer(os.LookupEnv)
	return c, nil
}

// ownAttempt is the application attempt the AM runs as, from its own
// container's id (YARN's CONTAINER_ID).
func ownAttempt() (*hadoopyarn.ApplicationAttemptIdProto, error) {
	id, err := yarn.ParseContainerID(os.Getenv("CONTAINER_ID"))
	if err != nil {
		return nil, fmt.Errorf("CONTAINER_ID: %w", err)
	}
	return id.GetAppAttemptId(), nil
}

// ownContainer is the AM's own container and its node's NodeId, as its
// environment names them; nil and empty where it does not.
func ownContainer(env func(string) (string, bool)) (*hadoopyarn.ContainerIdProto, string) {
	idText, _ := env("CONTAINER_ID")
	id, err := yarn.ParseContainerID(idText)
	host, _ := env("NM_HOST")
	port, _ := env("NM_PORT")
	if err != nil || host == "" || port == "" {
		return nil, ""
	}
	return id, net.JoinHostPort(host, port)
}

// sessionSecret is the secret a session's clients prove they hold.
func (c container) sessionSecret() ([]byte, error) {
	s, ok := c.creds.FindSecret(yarnapp.SessionSecretAlias)
	if !ok {
		return nil, errors.New("the container's credentials hold no session secret")
	}
	return s, nil
}

// connectRM connects to the RM's scheduler with the AMRMToken; nodes are
// the options NodeManagers are reached with.
func (c container) connectRM() (rm *yarn.AMRMClient, nodes ipc.Options, err error) {
	if nodes, err = yarn.ClientOptions(c.hconf, c.user); err != nil {
		return nil, nodes, err
	}
	rmOpts := nodes
	rmOpts.Auth.Tokens = []*hadoopcommon.TokenProto{c.amrm.Proto()}
	addrs, err := yarn.Addresses(c.hconf, hadoopconf.RMSchedulerAddress)
	if err != nil {
		return nil, nodes, err
	}
	rm, err = yarn.NewAMRMClient(addrs, rmOpts)
	return rm, nodes, err
}

// delegationTokens are the tokens of the AM's credentials its executors
// get: all but the AMRMToken.
func (c container) delegationTokens() []credentials.Token {
	var out []credentials.Token
	for _, t := range c.creds.Tokens {
		if t.Kind != yarn.AMRMTokenKind {
			out = append(out, t)
		}
	}
	return out
}

// executorLaunchContext is the launch context every executor container
// shares: the local resources the submitter shipped and, as credentials,
// the application secret and delegation tokens (the AMRMToken is the
// AM's alone).
func (c container) executorLaunchContext() (*hadoopyarn.ContainerLaunchContextProto, error) {
	launch := &hadoopyarn.ContainerLaunchContextProto{}
	raw, err := os.ReadFile(yarnapp.ExecutorFiles)
	if err == nil {
		err = proto.Unmarshal(raw, launch)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", yarnapp.ExecutorFiles, err)
	}
	creds := &credentials.Credentials{}
	creds.AddSecret(credentials.Secret{Alias: executor.SecretAlias, Value: c.secret})
	for _, t := range c.delegationTokens() {
		creds.AddToken(t)
	}
	launch.Tokens, err = creds.Bytes()
	return launch, err
}
