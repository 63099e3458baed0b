package appmaster

import (
	"context"
	"errors"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
)

// refreshRetry is how long the AM waits to try again when fetching fresh
// tokens failed (a KDC or NameNode away for a moment).
const refreshRetry = time.Minute

// tokensDue is when tokens issued at issued, living until maxDate and
// needing renewal every interval (0: the RM renews them, so only maxDate
// counts), are due for replacement: ratio of the way to the sooner end,
// as Spark's spark.security.credentials.renewalRatio has it.
func tokensDue(issued, maxDate time.Time, interval time.Duration, ratio float64) time.Time {
	life := maxDate.Sub(issued)
	if interval > 0 && interval < life {
		life = interval
	}
	return issued.Add(time.Duration(float64(life) * ratio))
}

// earliestDue is the soonest any of tokens is due; ok is false when none
// is a delegation token whose identifier says when it was issued.
func earliestDue(tokens []credentials.Token, interval time.Duration, ratio float64) (due time.Time, ok bool) {
	for _, t := range tokens {
		id, err := credentials.ParseDelegationIdentifier(t.Identifier)
		if err != nil {
			continue
		}
		if d := tokensDue(id.Issued, id.MaxDate, interval, ratio); !ok || d.Before(due) {
			due, ok = d, true
		}
	}
	return due, ok
}

// tokenRefresh keeps a long-running application's delegation tokens
// fresh: logged in from the keytab its submitter shipped, it fetches new
// ones when the current are due and hands them to fresh, the AM's loop,
// which owns them from then on. It returns when ctx ends.
type tokenRefresh struct {
	hconf  *hadoopconf.Conf
	id     *kerberos.Identity
	ratio  float64
	others string // spindle.kerberos.access.hadoopFileSystems
	log    logrus.FieldLogger
}

func (r tokenRefresh) run(ctx context.Context, current []credentials.Token, fresh func([]credentials.Token)) {
	interval, err := yarnapp.RenewalInterval(ctx, r.hconf, r.id)
	if err != nil {
		r.log.WithError(err).Warn("cannot learn the tokens' renewal interval: refreshing by their max lifetime only")
	}
	for {
		due, ok := earliestDue(current, interval, r.ratio)
		if !ok {
			r.log.Warn("no delegation token tells when it expires: none will be refreshed")
			return
		}
		r.log.WithField("due", due.Format(time.RFC3339)).Info("delegation tokens to be refreshed")
		if !sleepUntil(ctx, due) {
			return
		}
		tokens, err := yarnapp.DelegationTokens(ctx, r.hconf, r.id, r.others)
		for err != nil {
			r.log.WithError(err).Warn("fetching fresh delegation tokens failed: trying again")
			if !sleepUntil(ctx, time.Now().Add(refreshRetry)) {
				return
			}
			tokens, err = yarnapp.DelegationTokens(ctx, r.hconf, r.id, r.others)
		}
		fresh(tokens)
		current = tokens
	}
}

// endBeforeExpiry ends an application that cannot refresh its tokens (no
// keytab) before they stop working, by cancelling its context with a
// cause that becomes its diagnostics: an application whose tasks
// suddenly cannot reach HDFS would fail far from the reason.
func endBeforeExpiry(ctx context.Context, tokens []credentials.Token, ratio float64, end context.CancelCauseFunc, log logrus.FieldLogger) {
	due, ok := earliestDue(tokens, 0, ratio)
	if !ok {
		return
	}
	log.WithField("at", due.Format(time.RFC3339)).Info("without a keytab the application ends before its delegation tokens expire")
	if sleepUntil(ctx, due) {
		end(errors.New("ending before the delegation tokens expire: the application has no keytab to fetch new ones " +
			"(submit with spindle.kerberos.principal and spindle.kerberos.keytab to outlive them)"))
	}
}

// sleepUntil waits for t and tells whether it came before ctx ended.
func sleepUntil(ctx context.Context, t time.Time) bool {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// credentialsRefresh settles how the AM keeps its delegation tokens
// working on a Kerberos cluster: refreshed, logged in with a shipped
// keytab (the function it returns, for appMaster.RefreshTokens), or,
// without one, by ending the application before they expire (started
// here, with end). Without Kerberos there is nothing to do, nor with a
// keytab whose login failed (logIn said so).
func credentialsRefresh(ctx context.Context, conf *config.Config, hconf *hadoopconf.Conf, tokens []credentials.Token,
	login amLogin, end context.CancelCauseFunc, log logrus.FieldLogger) (func(context.Context, func([]credentials.Token)), error) {
	if method, err := hconf.Authentication(); err != nil || method != hadoopconf.AuthKerberos || len(tokens) == 0 {
		return nil, err
	}
	s := settings.Read(conf)
	ratio, others := s.Float("spindle.kerberos.renewal.ratio"), s.String("spindle.kerberos.access.hadoopFileSystems")
	if err := s.Err(); err != nil {
		return nil, err
	}
	switch {
	case !login.keytab:
		go endBeforeExpiry(ctx, tokens, ratio, end, log)
		return nil, nil
	case login.id == nil:
		return nil, nil
	}
	r := tokenRefresh{hconf: hconf, id: login.id, ratio: ratio, others: others, log: log}
	return func(ctx context.Context, fresh func([]credentials.Token)) { r.run(ctx, tokens, fresh) }, nil
}
