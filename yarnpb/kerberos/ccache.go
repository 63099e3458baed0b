package kerberos

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
)

// confRealm is the realm of the entries MIT's library keeps its own notes
// in (krb5_ccache_conf_data: pa_type, fast_avail, refresh_time). Their
// "tickets" are not tickets, so they are dropped before gokrb5 reads the
// cache, which would refuse the whole cache for them.
const confRealm = "X-CACHECONF:"

// cachePath is the ticket cache kinit writes: KRB5CCNAME when set (FILE:
// caches only: gokrb5 reads no others), else MIT's default
// /tmp/krb5cc_<uid>.
func cachePath(env func(string) (string, bool)) (string, error) {
	v, ok := env("KRB5CCNAME")
	if !ok || v == "" {
		return fmt.Sprintf("/tmp/krb5cc_%d", os.Getuid()), nil
	}
	kind, path, typed := strings.Cut(v, ":")
	if !typed {
		return v, nil
	}
	if kind != "FILE" {
		return "", fmt.Errorf("kerberos: KRB5CCNAME=%s is a %s cache; Spindle reads FILE: caches only: run kinit -c FILE:/tmp/krb5cc_%d (and set KRB5CCNAME to it), or set spindle.kerberos.principal and spindle.kerberos.keytab", v, kind, os.Getuid())
	}
	return path, nil
}

func cacheLogin(conf *config.Config, env func(string) (string, bool)) (*Identity, error) {
	path, err := cachePath(env)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("kerberos: %w: no ticket cache at %s: %s", ErrNoTicket, path, loginHint)
	}
	cache, err := credentials.LoadCCache(path)
	if err != nil {
		return nil, fmt.Errorf("kerberos: reading the ticket cache %s: %v", path, err)
	}
	cache.Credentials = slices.DeleteFunc(cache.Credentials, func(c *credentials.Credential) bool {
		return c.Server.Realm == confRealm
	})
	principal := cache.DefaultPrincipal.PrincipalName.PrincipalNameString() + "@" + cache.DefaultPrincipal.Realm
	tgt, ok := findTGT(cache)
	if !ok {
		return nil, fmt.Errorf("kerberos: %w: the ticket cache %s holds no ticket-granting ticket for %s: %s", ErrNoTicket, path, principal, loginHint)
	}
	if now := time.Now(); !now.Before(tgt.EndTime) {
		return nil, fmt.Errorf("kerberos: %w: the ticket of %s in %s expired at %s: %s", ErrNoTicket, principal, path, tgt.EndTime.Local().Format(time.RFC3339), loginHint)
	}
	cl, err := client.NewFromCCache(cache, conf, client.DisablePAFXFAST(true))
	if err != nil {
		return nil, fmt.Errorf("kerberos: reading the ticket cache %s: %v", path, err)
	}
	return &Identity{cl: cl, principal: principal, Expires: tgt.EndTime}, nil
}

// findTGT finds the default principal's ticket-granting ticket for its
// own realm.
func findTGT(cache *credentials.CCache) (*credentials.Credential, bool) {
	realm := cache.DefaultPrincipal.Realm
	for _, c := range cache.Credentials {
		n := c.Server.PrincipalName.NameString
		if len(n) == 2 && n[0] == "krbtgt" && n[1] == realm {
			return c, true
		}
	}
	return nil, false
}
