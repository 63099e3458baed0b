package kerberos

import (
	"fmt"
	"strings"

	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/krberror"
)

// explain turns gokrb5's error chains, which flatten their causes into
// text, into what went wrong and what to do, keeping the original at the
// end for whoever needs the detail.
func explain(err error, conf *config.Config, realm string) string {
	msg := err.Error()
	switch {
	case strings.Contains(msg, krberror.NetworkingError):
		return fmt.Sprintf("cannot reach a KDC of %s (krb5.conf names %s): check that it runs and that krb5.conf is the cluster's (%v)", realm, kdcs(conf, realm), err)
	case strings.Contains(msg, "KDC_ERR_C_PRINCIPAL_UNKNOWN"):
		return fmt.Sprintf("the KDC does not know this principal (%v)", err)
	case strings.Contains(msg, "KDC_ERR_S_PRINCIPAL_UNKNOWN"):
		return fmt.Sprintf("the KDC does not know the server's principal: check the principal key in the Hadoop configuration (%v)", err)
	case strings.Contains(msg, "KDC_ERR_PREAUTH_FAILED"), strings.Contains(msg, krberror.DecryptingError):
		return fmt.Sprintf("the key does not match the KDC's: the keytab is out of date or for another principal (%v)", err)
	case strings.Contains(msg, "KRB_AP_ERR_SKEW"):
		return fmt.Sprintf("this machine's clock is too far from the KDC's (%v)", err)
	}
	return err.Error()
}

// kdcs lists the KDCs krb5.conf names for realm.
func kdcs(conf *config.Config, realm string) string {
	for _, r := range conf.Realms {
		if r.Realm == realm && len(r.KDC) > 0 {
			return strings.Join(r.KDC, ", ")
		}
	}
	return "no KDC"
}
