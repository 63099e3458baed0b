package appmaster

import (
	"context"
	"errors"
	"os"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// errNoKeytab is why an AM on a Kerberos cluster cannot ask the RM for
// its application's record: the client protocol takes Kerberos or an RM
// delegation token, not the AMRMToken, and the AM holds neither without
// a keytab.
var errNoKeytab = errors.New("on a Kerberos cluster the AM asks the RM as a client only with a keytab " +
	"(spindle.kerberos.principal and spindle.kerberos.keytab), and the application has none")

// attemptsOnRecord asks the RM for app's attempts as it records them
// (ApplicationClientProtocol.getApplicationAttempts), as the
// application's user: on a cluster without Kerberos by name, on a
// Kerberos one logged in from the keytab the submitter shipped. The
// RM's view ACL lets the application's owner read them.
func attemptsOnRecord(ctx context.Context, conf *config.Config, hconf *hadoopconf.Conf, app *hadoopyarn.ApplicationIdProto) (
	[]*hadoopyarn.ApplicationAttemptReportProto, error) {
	login, err := settings.KerberosLogin(conf)
	if err != nil {
		return nil, err
	}
	method, err := hconf.Authentication()
	if err != nil {
		return nil, err
	}
	if method == hadoopconf.AuthKerberos && login.Keytab == "" {
		return nil, errNoKeytab
	}
	conn, err := yarnapp.ConnectWith(login, os.LookupEnv)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	resp, err := conn.RM.GetApplicationAttempts(ctx, &hadoopyarn.GetApplicationAttemptsRequestProto{ApplicationId: app})
	if err != nil {
		return nil, err
	}
	return resp.GetApplicationAttempts(), nil
}
