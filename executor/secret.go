package executor

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/spindle-yarn/spindle/yarnpb/credentials"
)

// SecretAlias names the application secret among a credentials file's
// secrets: on YARN the submitter puts it in the launch context's tokens and
// the NodeManager writes them to HADOOP_TOKEN_FILE_LOCATION.
const SecretAlias = "spindle.application.secret"

// maxSecret bounds what is read from standard input for the secret.
const maxSecret = 1024

// ReadSecret gets the application secret from where the launcher put it,
// as SPINDLE_SECRET_FROM says: "stdin" (local mode: the launcher wrote it
// there and closed it) or "credentials" (YARN: the container's credentials
// file). Never from argv or the environment.
//
// From a credentials file it also removes the secret, rewriting the file
// with the rest (the application's delegation tokens) in place: the file
// sits in the container's working directory, where tasks run, and
// HADOOP_TOKEN_FILE_LOCATION, which tasks inherit, names it. Tasks are to
// find the application's tokens there, never its secret.
func ReadSecret(from string, stdin io.Reader, lookup func(string) (string, bool)) ([]byte, error) {
	switch from {
	case "stdin":
		secret, err := io.ReadAll(io.LimitReader(stdin, maxSecret))
		if err != nil {
			return nil, fmt.Errorf("reading the application secret from standard input: %w", err)
		}
		if len(secret) == 0 {
			return nil, errors.New("no application secret on standard input")
		}
		return secret, nil
	case "credentials":
		path, ok := lookup(credentials.EnvTokenFile)
		if !ok || path == "" {
			return nil, fmt.Errorf("%s is not set: no credentials file to read the application secret from", credentials.EnvTokenFile)
		}
		creds, err := credentials.ReadFile(path)
		if err != nil {
			return nil, err
		}
		secret, ok := creds.FindSecret(SecretAlias)
		if !ok || len(secret) == 0 {
			return nil, fmt.Errorf("%s holds no secret %q", path, SecretAlias)
		}
		creds.Secrets = slices.DeleteFunc(creds.Secrets, func(s credentials.Secret) bool { return s.Alias == SecretAlias })
		if err := creds.WriteFile(path, credentials.DefaultVersion); err != nil {
			return nil, fmt.Errorf("removing the application secret from %s, where tasks would read it: %w", path, err)
		}
		return secret, nil
	}
	return nil, fmt.Errorf("SPINDLE_SECRET_FROM=%q: want stdin or credentials", from)
}
