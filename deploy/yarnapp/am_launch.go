package yarnapp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/sirupsen/logrus"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// amFiles writes in tmp what the AM needs in its working directory
// besides the binary, and lists those and the files to ship: its
// settings, the job's spec, the allocation file, Hadoop's configuration,
// on a Kerberos cluster krb5.conf and the keytab, and --files.
func (s *submission) amFiles(tmp string) ([]staging.File, error) {
	settingsFile := filepath.Join(tmp, SettingsFile)
	// The allocation file names a file here: the AM gets it shipped
	// beside it, and reads it there.
	allocationFile, err := s.conf.String("spindle.scheduler.allocation.file")
	if err != nil {
		return nil, err
	}
	over := map[string]string{}
	if allocationFile != "" {
		over["spindle.scheduler.allocation.file"] = AllocationFile
	}
	if s.conn.Identity != nil && s.login.Keytab != "" {
		over["spindle.kerberos.keytab"] = Keytab
	}
	if err := settings.WriteFile(settingsFile, s.conf, over); err != nil {
		return nil, err
	}
	files := []staging.File{{Local: settingsFile, Name: SettingsFile}}
	if allocationFile != "" {
		files = append(files, staging.File{Local: allocationFile, Name: AllocationFile})
	}
	if s.app.Job != nil {
		// The spec as written, or the short form's as JSON, which job
		// specs accept.
		jobFile, err := writeSpec(tmp, s.app.Job, s.app.SpecText)
		if err != nil {
			return nil, err
		}
		files = append(files, staging.File{Local: jobFile, Name: JobFile})
	}
	confDir, _ := os.LookupEnv("HADOOP_CONF_DIR")
	for _, f := range []string{"core-site.xml", "hdfs-site.xml", "yarn-site.xml"} {
		if _, err := os.Stat(filepath.Join(confDir, f)); err == nil {
			files = append(files, staging.File{Local: filepath.Join(confDir, f), Name: f})
		}
	}
	if s.conn.Identity != nil {
		files = append(files, staging.File{Local: s.conn.Identity.ConfigPath, Name: Krb5Conf})
		if s.login.Keytab != "" {
			// Staged like every file, into the application's own 0700
			// directory; the NodeManager localizes it for this
			// application alone.
			files = append(files, staging.File{Local: s.login.Keytab, Name: Keytab})
		}
	}
	for _, f := range s.app.Files {
		files = append(files, staging.File{Local: f, Name: shippedAs(f)})
	}
	return files, nil
}

// amCredentials are the AM container's credentials: a new application
// secret, a session's secret, and on a Kerberos cluster the application's
// delegation tokens (no container has a ticket: the NodeManagers
// localize, and the AM and tasks reach HDFS, with them).
func (s *submission) amCredentials(ctx context.Context) ([]byte, error) {
	creds := &credentials.Credentials{}
	creds.AddSecret(credentials.Secret{Alias: executor.SecretAlias, Value: wire.NewSecret()})
	if s.app.SessionSecret != nil {
		creds.AddSecret(credentials.Secret{Alias: SessionSecretAlias, Value: s.app.SessionSecret})
	}
	if s.conn.Identity != nil {
		others, err := s.conf.String("spindle.kerberos.access.hadoopFileSystems")
		if err != nil {
			return nil, err
		}
		delegation, err := s.conn.DelegationTokens(ctx, others)
		if err != nil {
			return nil, err
		}
		for _, t := range delegation {
			s.log.WithField("token", t.String()).Info("got a delegation token")
			creds.AddToken(t)
		}
	}
	return creds.Bytes()
}

// submit submits the application whose AM runs `spindle am` with
// resources, once they are staged into dir, and tokens.
func (s *submission) submit(ctx context.Context, resources []*hadoopyarn.StringLocalResourceMapProto, dir string, tokens []byte) error {
	env := []*hadoopyarn.StringStringMapProto{}
	for k, v := range map[string]string{"SPINDLE_APP_ID": s.appID, "SPINDLE_STAGING_DIR": dir, "HADOOP_USER_NAME": s.conn.User,
		"SPINDLE_SUBMIT_UNIX_MS": strconv.FormatInt(time.Now().UnixMilli(), 10)} {
		env = append(env, &hadoopyarn.StringStringMapProto{Key: proto.String(k), Value: proto.String(v)})
	}
	// The Hadoop configuration shipped beside it names the scheduler.
	amEnv := "HADOOP_CONF_DIR=$PWD"
	if s.conn.Identity != nil {
		amEnv += " KRB5_CONFIG=$PWD/" + Krb5Conf
	}
	amCommand := "./spindle am --session"
	if s.app.Job != nil {
		amCommand = "./spindle am"
	}
	amSpec := &hadoopyarn.ContainerLaunchContextProto{
		LocalResources:   resources,
		Environment:      env,
		Tokens:           tokens,
		Application_ACLs: s.acls.YARN(),
		// The AM logs to its stderr file and rolls it over itself.
		Command: []string{amEnv + " " + amCommand + " --log-file <LOG_DIR>/am.stderr 1><LOG_DIR>/am.stdout 2><LOG_DIR>/am.stderr"},
	}
	s.log.WithFields(logrus.Fields{"queue": s.queue, "name": s.app.Name, "am_memory_mb": s.amMemMB, "am_cores": s.amCores, "max_attempts": s.attempts.Max}).
		Info("submitting the application")
	sub := &hadoopyarn.ApplicationSubmissionContextProto{
		ApplicationId: s.id, ApplicationName: proto.String(s.app.Name), Queue: proto.String(s.queue),
		ApplicationType: proto.String("SPINDLE"), MaxAppAttempts: proto.Int32(int32(s.attempts.Max)), ApplicationTags: s.tags,
		AmContainerSpec: amSpec, Resource: yarn.NewResource(s.amMemMB, int32(s.amCores), nil),
	}
	s.attemptPolicy(sub)
	_, err := s.conn.RM.SubmitApplication(ctx, &hadoopyarn.SubmitApplicationRequestProto{ApplicationSubmissionContext: sub})
	if err != nil {
		if ctx.Err() != nil { // the submission may have reached the RM
			KillInterrupted(s.out, s.conn.RM, s.id)
		}
		return fmt.Errorf("submitting %s: %w", s.appID, err)
	}
	return nil
}

// attemptPolicy sets how YARN treats the application's attempts: with
// spindle.yarn.am.keepContainers, an attempt that fails leaves its
// containers running for the next to adopt (work-preserving AM restart,
// docs/reliability.md); with spindle.yarn.am.attemptFailuresValidityInterval
// (a session's default: an hour), only failures within that interval
// count against the attempts, so that a session that runs for weeks is
// not ended by failures months apart.
func (s *submission) attemptPolicy(sub *hadoopyarn.ApplicationSubmissionContextProto) {
	sub.KeepContainersAcrossApplicationAttempts = proto.Bool(s.attempts.KeepContainers)
	if s.attempts.FailuresValidity > 0 {
		sub.AttemptFailuresValidityInterval = proto.Int64(s.attempts.FailuresValidity.Milliseconds())
	}
}
