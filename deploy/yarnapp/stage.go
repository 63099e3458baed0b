package yarnapp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sirupsen/logrus"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// stageAndSubmit stages files into dir, then a file naming those of them
// executors need (ExecutorFiles, written in tmp), and calls submit with
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
			unstage(ctx, log, stager, dir)
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
	execFile := filepath.Join(tmp, ExecutorFiles)
	if err := os.WriteFile(execFile, raw, 0o600); err != nil {
		return err
	}
	more, err := stager.Stage(ctx, dir, []staging.File{{Local: execFile, Name: ExecutorFiles}})
	if err != nil {
		return fmt.Errorf("staging to %s: %w", dir, err)
	}
	// An interrupt that came once the uploads were done: submit nothing.
	if ctx.Err() != nil {
		return fmt.Errorf("not submitted: %w", context.Cause(ctx))
	}
	return submit(ctx, append(resources, more...))
}

// unstage removes the staging directory dir of an application that
// will not remove it itself (interrupted before it was submitted, or
// failed, or killed), best effort: a failure
// is logged. It has a context of its own, within a minute: ctx is often
// one an interrupt has cancelled, and the removal is part of handling
// that interrupt.
func unstage(ctx context.Context, log logrus.FieldLogger, stager *staging.Stager, dir string) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if err := stager.Remove(rctx, dir); err != nil {
		log.WithError(err).Warn("the staging directory is left behind")
		return
	}
	log.WithField("dir", dir).Debug("removed the staging directory")
}

// writeSpec writes a job built from the command line as a spec file.
func writeSpec(dir string, job *jobspec.Job, text []byte) (string, error) {
	if text == nil {
		var err error
		if text, err = job.MarshalSpec(); err != nil {
			return "", err
		}
	}
	path := filepath.Join(dir, JobFile)
	return path, os.WriteFile(path, text, 0o600)
}
