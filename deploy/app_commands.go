package deploy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// appCommandTimeout bounds status, kill and list: each is a few RPCs.
const appCommandTimeout = 2 * time.Minute

func applicationArg(c *cli.Context) (*hadoopyarn.ApplicationIdProto, error) {
	if c.NArg() != 1 {
		return nil, fmt.Errorf("want one application id (application_<timestamp>_<number>), got %d arguments", c.NArg())
	}
	return yarn.ParseApplicationID(c.Args().First())
}

func report(ctx context.Context, rm *yarn.ApplicationClient, id *hadoopyarn.ApplicationIdProto) (*hadoopyarn.ApplicationReportProto, error) {
	rep, err := rm.GetApplicationReport(ctx, &hadoopyarn.GetApplicationReportRequestProto{ApplicationId: id})
	if errors.Is(err, ipc.ErrApplicationNotFound) {
		return nil, fmt.Errorf("%s: the ResourceManager does not know this application", yarn.ApplicationID(id))
	}
	if err != nil {
		return nil, err
	}
	return rep.GetApplicationReport(), nil
}

// withApplication runs fn on the application the command names, with a
// client for the RM and its current report.
func withApplication(c *cli.Context, fn func(ctx context.Context, rm *yarn.ApplicationClient, id *hadoopyarn.ApplicationIdProto, r *hadoopyarn.ApplicationReportProto) error) error {
	id, err := applicationArg(c)
	if err != nil {
		return err
	}
	conn, err := connectWithDefaults()
	if err != nil {
		return err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(c.Context, appCommandTimeout)
	defer cancel()
	r, err := report(ctx, conn.RM, id)
	if err != nil {
		return err
	}
	return fn(ctx, conn.RM, id, r)
}

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:      "status",
		Usage:     "show a YARN application's state",
		ArgsUsage: "APP_ID",
		Action: func(c *cli.Context) error {
			return withApplication(c, func(_ context.Context, _ *yarn.ApplicationClient, _ *hadoopyarn.ApplicationIdProto, r *hadoopyarn.ApplicationReportProto) error {
				yarnapp.WriteReport(c.App.Writer, r)
				return nil
			})
		},
	}
}

func killCommand() *cli.Command {
	return &cli.Command{
		Name:      "kill",
		Usage:     "kill a YARN application and wait until it has ended",
		ArgsUsage: "APP_ID",
		Action: func(c *cli.Context) error {
			return withApplication(c, func(ctx context.Context, rm *yarn.ApplicationClient, id *hadoopyarn.ApplicationIdProto, r *hadoopyarn.ApplicationReportProto) error {
				return kill(ctx, c.App.Writer, rm, id, r)
			})
		},
	}
}

// kill asks the RM to kill the application until it says done, then waits
// for its end state.
func kill(ctx context.Context, w io.Writer, rm *yarn.ApplicationClient, id *hadoopyarn.ApplicationIdProto, r *hadoopyarn.ApplicationReportProto) error {
	name := yarn.ApplicationID(id)
	if yarnapp.Ended(r) {
		fmt.Fprintf(w, "%s had already ended: %s (%s)\n", name, yarnapp.State(r), yarnapp.FinalStatus(r))
		return nil
	}
	// The RM answers "kill under way" until it has stopped every container.
	for {
		resp, err := rm.ForceKillApplication(ctx, &hadoopyarn.KillApplicationRequestProto{ApplicationId: id})
		if err != nil {
			return fmt.Errorf("killing %s: %w", name, err)
		}
		if resp.GetIsKillCompleted() {
			break
		}
		if err := pause(ctx, 200*time.Millisecond); err != nil {
			return fmt.Errorf("killing %s: %w", name, err)
		}
	}
	for {
		r, err := report(ctx, rm, id)
		if err != nil {
			return err
		}
		if yarnapp.Ended(r) {
			fmt.Fprintf(w, "%s %s\n", name, yarnapp.State(r))
			return nil
		}
		if err := pause(ctx, 200*time.Millisecond); err != nil {
			return fmt.Errorf("waiting for %s to end: %w", name, err)
		}
	}
}

func listCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list Spindle applications on YARN (running ones; --all for ended ones too)",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "all", Usage: "include applications that have ended"}},
		Action: func(c *cli.Context) error {
			conn, err := connectWithDefaults()
			if err != nil {
				return err
			}
			defer conn.Close()
			rm := conn.RM
			ctx, cancel := context.WithTimeout(c.Context, appCommandTimeout)
			defer cancel()
			req := &hadoopyarn.GetApplicationsRequestProto{ApplicationTypes: []string{"SPINDLE"}}
			if !c.Bool("all") {
				req.ApplicationStates = []hadoopyarn.YarnApplicationStateProto{
					hadoopyarn.YarnApplicationStateProto_NEW, hadoopyarn.YarnApplicationStateProto_NEW_SAVING,
					hadoopyarn.YarnApplicationStateProto_SUBMITTED, hadoopyarn.YarnApplicationStateProto_ACCEPTED,
					hadoopyarn.YarnApplicationStateProto_RUNNING,
				}
			}
			resp, err := rm.GetApplications(ctx, req)
			if err != nil {
				return err
			}
			apps := resp.GetApplications()
			sort.Slice(apps, func(i, j int) bool {
				return yarn.ApplicationID(apps[i].GetApplicationId()) < yarn.ApplicationID(apps[j].GetApplicationId())
			})
			tw := tabwriter.NewWriter(c.App.Writer, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "APPLICATION\tNAME\tUSER\tQUEUE\tSTATE\tFINAL\tPROGRESS")
			for _, r := range apps {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%.0f%%\n", yarn.ApplicationID(r.GetApplicationId()), r.GetName(), r.GetUser(), r.GetQueue(),
					yarnapp.State(r), yarnapp.FinalStatus(r), 100*r.GetProgress())
			}
			return tw.Flush()
		},
	}
}

func pause(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
