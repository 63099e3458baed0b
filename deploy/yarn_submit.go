package deploy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/appmaster"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/session"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// credentialBytes is c in Hadoop's token storage format, for a launch
// context's tokens.
func credentialBytes(c *credentials.Credentials) ([]byte, error) {
	var b bytes.Buffer
	err := c.Write(&b, credentials.DefaultVersion)
	return b.Bytes(), err
}

// applicationTags reads spindle.yarn.tags: comma-separated, blanks
// dropped. YARN refuses a tag that is not ASCII or longer than 100
// characters: say so before submitting.
func applicationTags(list string) ([]string, error) {
	var tags []string
	for _, t := range strings.Split(list, ",") {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		if len(t) > 100 || strings.IndexFunc(t, func(r rune) bool { return r > unicode.MaxASCII }) >= 0 {
			return nil, fmt.Errorf("spindle.yarn.tags: tag %q: YARN takes ASCII tags of at most 100 characters", t)
		}
		tags = append(tags, t)
	}
	return tags, nil
}

// runYarn submits job to YARN and follows it to its end.
//
// An interrupt (SIGINT or SIGTERM, which cancel c.Context) stops it:
// before the submission, the staged files are removed; while it follows
// the application, the application is killed, as a local job is (--no-wait
// submits without following).
func runYarn(c *cli.Context, conf *config.Config, log logrus.FieldLogger, job loadedJob) error {
	app, err := submitYarn(c, conf, log, yarnApp{job: job.Job, specText: job.Text, name: job.Name})
	if err != nil {
		return err
	}
	defer app.conn.Close()
	defer app.stager.Close()
	fmt.Fprintf(c.App.Writer, "submitted %s\n", app.appID)
	if !c.Bool("wait") || c.Bool("no-wait") {
		return nil
	}
	ctx, w := c.Context, c.App.Writer
	err = follow(ctx, app.appID, func(ctx context.Context) (*hadoopyarn.ApplicationReportProto, error) {
		return report(ctx, app.rm, app.id)
	}, w, isTerminal(w), time.Second)
	if ctx.Err() != nil {
		err = killInterrupted(c.App.Writer, app.rm, app.id)
	}
	// The AM removes the staging directory when it succeeds; an application
	// that failed or was killed may have left it.
	removeStaged(ctx, log, app.stager, app.dir)
	return err
}

// yarnApp is an application to submit: a job's, or a session's.
type yarnApp struct {
	job *jobspec.Job // nil: a session
	// specText is the job's spec as the user wrote it, read once; nil:
	// the job came from the command line.
	specText []byte
	name     string
	// sessionSecret is a session's: its clients prove they hold it.
	sessionSecret []byte
}

// submitted is an application YARN has accepted. The caller closes conn
// and stager.
type submitted struct {
	conn   *yarnapp.Connection
	rm     *yarn.ApplicationClient // conn.RM
	id     *hadoopyarn.ApplicationIdProto
	appID  string
	stager *staging.Stager
	dir    string // its staging directory
}

// submitYarn stages what app's ApplicationMaster needs and submits it.
// An interrupt before the submission removes the staged files.
func submitYarn(c *cli.Context, conf *config.Config, log logrus.FieldLogger, app yarnApp) (_ *submitted, err error) {
	ctx := c.Context
	login, err := settings.KerberosLogin(conf)
	if err != nil {
		return nil, err
	}
	conn, err := yarnapp.Connect(login)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			conn.Close()
		}
	}()
	rm, hconf, user := conn.RM, conn.Conf, conn.User
	acls, err := settings.ACLs(conf, user)
	if err != nil {
		return nil, err
	}
	s := settings.Read(conf)
	profiles, stageProfiles, err := settings.ExecutorProfiles(conf, app.job)
	if err != nil {
		return nil, err
	}
	amMem, err := conf.SizeMiB("spindle.yarn.am.memory")
	if err != nil {
		return nil, err
	}
	queue, amCores, attempts := s.String("spindle.yarn.queue"), s.Int("spindle.yarn.am.cores"), s.Int("spindle.yarn.maxAppAttempts")
	stagingTemplate := s.String("spindle.yarn.stagingDir")
	tags, err := applicationTags(s.String("spindle.yarn.tags"))
	if s.Err() != nil {
		return nil, s.Err()
	}
	if err != nil {
		return nil, err
	}

	newApp, err := rm.GetNewApplication(ctx, &hadoopyarn.GetNewApplicationRequestProto{})
	if err != nil {
		return nil, fmt.Errorf("asking the ResourceManager for an application id: %w", err)
	}
	asks := []yarnapp.Ask{{Role: "ApplicationMaster", MemoryMB: amMem, VCores: amCores}}
	for _, p := range profiles {
		asks = append(asks, yarnapp.Ask{Role: settings.ProfileRole(p, profiles, stageProfiles, app.job), MemoryMB: p.MemoryMB, VCores: p.Cores, GPUs: p.GPUs})
	}
	err = yarnapp.Check(ctx, rm, newApp.GetMaximumCapability(), queue, asks)
	if err != nil {
		return nil, err
	}
	appID := yarn.ApplicationID(newApp.GetApplicationId())
	log = log.WithField("app", appID)

	// What the AM needs in its working directory.
	tmp, err := os.MkdirTemp("", "spindle-submit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	settingsFile := filepath.Join(tmp, appmaster.SettingsFile)
	// The allocation file names a file here: the AM gets it shipped
	// beside it, and reads it there.
	allocationFile, err := conf.String("spindle.scheduler.allocation.file")
	if err != nil {
		return nil, err
	}
	over := map[string]string{}
	if allocationFile != "" {
		over["spindle.scheduler.allocation.file"] = appmaster.AllocationFile
	}
	if conn.Identity != nil && login.Keytab != "" {
		over["spindle.kerberos.keytab"] = appmaster.Keytab
	}
	if err := settings.WriteFile(settingsFile, conf, over); err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	files := []staging.File{{Local: settingsFile, Name: appmaster.SettingsFile}}
	if allocationFile != "" {
		files = append(files, staging.File{Local: allocationFile, Name: appmaster.AllocationFile})
	}
	amCommand := "./spindle am --session"
	if app.job != nil {
		amCommand = "./spindle am"
		// The spec as written, or the short form's as JSON, which job
		// specs accept.
		jobFile, err := writeSpec(tmp, app.job, app.specText)
		if err != nil {
			return nil, err
		}
		files = append(files, staging.File{Local: jobFile, Name: appmaster.JobFile})
	}
	confDir, _ := os.LookupEnv("HADOOP_CONF_DIR")
	for _, f := range []string{"core-site.xml", "hdfs-site.xml", "yarn-site.xml"} {
		if _, err := os.Stat(filepath.Join(confDir, f)); err == nil {
			files = append(files, staging.File{Local: filepath.Join(confDir, f), Name: f})
		}
	}
	amEnv := "HADOOP_CONF_DIR=$PWD"
	if conn.Identity != nil {
		files = append(files, staging.File{Local: conn.Identity.ConfigPath, Name: appmaster.Krb5Conf})
		amEnv += " KRB5_CONFIG=$PWD/" + appmaster.Krb5Conf
		if login.Keytab != "" {
			// Staged like every file, into the application's own 0700
			// directory; the NodeManager localizes it for this
			// application alone.
			files = append(files, staging.File{Local: login.Keytab, Name: appmaster.Keytab})
		}
	}
	shipped, err := shippedFiles(c.String("files"))
	if err != nil {
		return nil, err
	}
	for _, f := range shipped {
		files = append(files, staging.File{Local: f, Name: "files." + filepath.Base(f)})
	}
	creds := &credentials.Credentials{}
	creds.AddSecret(credentials.Secret{Alias: executor.SecretAlias, Value: wire.NewSecret()})
	if app.sessionSecret != nil {
		creds.AddSecret(credentials.Secret{Alias: session.SecretAlias, Value: app.sessionSecret})
	}
	if conn.Identity != nil {
		// No container has a ticket: the NodeManagers localize, and the
		// AM and tasks reach HDFS, with the application's tokens.
		delegation, err := conn.DelegationTokens(ctx, s.String("spindle.kerberos.access.hadoopFileSystems"))
		if err != nil {
			return nil, err
		}
		for _, t := range delegation {
			log.WithField("token", t.String()).Info("got a delegation token")
			creds.AddToken(t)
		}
	}
	tokens, err := creds.Bytes()
	if err != nil {
		return nil, err
	}
	stager, err := staging.New(hconf, user, conn.Identity)
	if err != nil {
		return nil, err
	}
	dir := staging.StagingDir(stagingTemplate, user, appID)
	// The binary comes from the user's cache, uploaded there once per
	// build; staged with the application when the cache cannot serve.
	binary := staging.File{Local: self, Name: "spindle", Executable: true}
	cacheDir := staging.CacheDir(stagingTemplate, user)
	cached, uploaded, err := stager.Cached(ctx, cacheDir, binary)
	switch {
	case err != nil:
		log.WithError(err).Warn("the binary cache cannot serve: staging the binary with the application")
		files = append(files, binary)
	case uploaded:
		log.WithFields(logrus.Fields{"dir": cacheDir, "bytes": cached.GetValue().GetSize()}).Info("uploaded the binary to the cache")
	default:
		log.WithFields(logrus.Fields{"dir": cacheDir, "bytes": cached.GetValue().GetSize()}).Info("reusing the cached binary")
	}
	err = stageAndSubmit(ctx, log, stager, dir, tmp, files, cached, func(ctx context.Context, resources []*hadoopyarn.StringLocalResourceMapProto) error {
		env := []*hadoopyarn.StringStringMapProto{}
		for k, v := range map[string]string{"SPINDLE_APP_ID": appID, "SPINDLE_STAGING_DIR": dir, "HADOOP_USER_NAME": user,
			"SPINDLE_SUBMIT_UNIX_MS": strconv.FormatInt(time.Now().UnixMilli(), 10)} {
			env = append(env, &hadoopyarn.StringStringMapProto{Key: proto.String(k), Value: proto.String(v)})
		}
		amSpec := &hadoopyarn.ContainerLaunchContextProto{
			LocalResources:   resources,
			Environment:      env,
			Tokens:           tokens,
			Application_ACLs: acls.YARN(),
			// The Hadoop configuration shipped beside it names the scheduler.
			// The AM logs to its stderr file and rolls it over itself.
			Command: []string{amEnv + " " + amCommand + " --log-file <LOG_DIR>/am.stderr 1><LOG_DIR>/am.stdout 2><LOG_DIR>/am.stderr"},
		}
		log.WithFields(logrus.Fields{"queue": queue, "name": app.name, "am_memory_mb": amMem, "am_cores": amCores, "max_attempts": attempts}).
			Info("submitting the application")
		_, err := rm.SubmitApplication(ctx, &hadoopyarn.SubmitApplicationRequestProto{ApplicationSubmissionContext: &hadoopyarn.ApplicationSubmissionContextProto{
			ApplicationId: newApp.GetApplicationId(), ApplicationName: proto.String(app.name), Queue: proto.String(queue),
			ApplicationType: proto.String("SPINDLE"), MaxAppAttempts: proto.Int32(int32(attempts)), ApplicationTags: tags,
			AmContainerSpec: amSpec, Resource: yarn.NewResource(amMem, int32(amCores), nil),
		}})
		if err != nil {
			if ctx.Err() != nil { // the submission may have reached the RM
				killInterrupted(c.App.Writer, rm, newApp.GetApplicationId())
			}
			return fmt.Errorf("submitting %s: %w", appID, err)
		}
		return nil
	})
	if err != nil {
		stager.Close()
		return nil, err
	}
	return &submitted{conn: conn, rm: rm, id: newApp.GetApplicationId(), appID: appID, stager: stager, dir: dir}, nil
}

// stageAndSubmit stages files into dir, then a file naming those of them
// executors need (appmaster.ExecutorFiles, written in tmp), and calls submit with
// the AM's LocalResources: those, and cached (from the binary cache) when
// it is not nil.
//
// Until submit succeeds, every way out removes dir: a failed upload, an
// interrupt (which cancels ctx, failing the upload under way, or stopping
// here before submit if the uploads were done), a refused submission. Once
// it succeeds the application owns dir: its AM removes it on success.
func stageAndSubmit(ctx context.Context, log logrus.FieldLogger, stager *staging.Stager, dir, tmp string, files []staging.File,
	cached *hadoopyarn.StringLocalResourceMapProto, submit func(context.Context, []*hadoopyarn.StringLocalResourceMapProto) error) (err error) {
	defer func() {
		if err != nil {
			removeStaged(ctx, log, stager, dir)
		}
	}()
	resources, err := stager.Stage(ctx, dir, files)
	if err != nil {
		return fmt.Errorf("staging to %s: %w", dir, err)
	}
	var size int64
	for _, r := range resources {
		log.WithFields(logrus.Fields{"name": r.GetKey(), "bytes": r.GetValue().GetSize()}).Debug("staged")
		size += r.GetValue().GetSize()
	}
	log.WithFields(logrus.Fields{"dir": dir, "files": len(resources), "bytes": size}).Info("staged the application's files")
	if cached != nil {
		resources = append(resources, cached)
	}
	// Executors need only the binary: the AM reads their local resources
	// from a file shipped with it.
	execLaunch := &hadoopyarn.ContainerLaunchContextProto{}
	for _, r := range resources {
		switch {
		case r.GetKey() == "spindle":
			execLaunch.LocalResources = append(execLaunch.LocalResources, r)
		case strings.HasPrefix(r.GetKey(), "files."):
			// Staged under a prefix so a shipped file cannot shadow the AM's
			// own; executors see it under its own name.
			execLaunch.LocalResources = append(execLaunch.LocalResources, &hadoopyarn.StringLocalResourceMapProto{
				Key: proto.String(strings.TrimPrefix(r.GetKey(), "files.")), Value: r.GetValue()})
		}
	}
	raw, err := proto.Marshal(execLaunch)
	if err != nil {
		return err
	}
	execFile := filepath.Join(tmp, appmaster.ExecutorFiles)
	if err := os.WriteFile(execFile, raw, 0o600); err != nil {
		return err
	}
	more, err := stager.Stage(ctx, dir, []staging.File{{Local: execFile, Name: appmaster.ExecutorFiles}})
	if err != nil {
		return fmt.Errorf("staging to %s: %w", dir, err)
	}
	// An interrupt that came once the uploads were done: submit nothing.
	if ctx.Err() != nil {
		return fmt.Errorf("not submitted: %w", context.Cause(ctx))
	}
	return submit(ctx, append(resources, more...))
}

// removeStaged removes the staging directory dir, best effort: a failure
// is logged. It has a context of its own, within a minute: ctx is often
// one an interrupt has cancelled, and the removal is part of handling
// that interrupt.
func removeStaged(ctx context.Context, log logrus.FieldLogger, stager *staging.Stager, dir string) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if err := stager.Remove(rctx, dir); err != nil {
		log.WithError(err).Warn("the staging directory is left behind")
		return
	}
	log.WithField("dir", dir).Debug("removed the staging directory")
}

// writeJSONSpec writes a job built from the command line as a spec file.
func writeSpec(dir string, job *jobspec.Job, text []byte) (string, error) {
	if text == nil {
		var err error
		if text, err = job.MarshalSpec(); err != nil {
			return "", err
		}
	}
	path := filepath.Join(dir, "job.yaml")
	return path, os.WriteFile(path, text, 0o600)
}

// killInterrupted kills an application whose submitter was interrupted
// while it ran, and says so.
func killInterrupted(w io.Writer, rm *yarn.ApplicationClient, id *hadoopyarn.ApplicationIdProto) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	name := yarn.ApplicationID(id)
	fmt.Fprintf(w, "interrupted: killing %s (spindle submit --no-wait leaves an application running)\n", name)
	r, err := report(ctx, rm, id)
	if err == nil {
		err = kill(ctx, w, rm, id, r)
	}
	if err != nil {
		return fmt.Errorf("interrupted, and killing %s failed: %w", name, err)
	}
	return fmt.Errorf("interrupted: %s killed", name)
}
