package deploy

import (
	"context"
	"errors"
	"fmt"
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

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:      "status",
		Usage:     "show a YARN application's state",
		ArgsUsage: "APP_ID",
		Action: func(c *cli.Context) error {
			id, err := applicationArg(c)
			if err != nil {
				return err
			}
			rm, _, err := yarnapp.Connect()
			if err != nil {
				return err
			}
			defer rm.Close()
			ctx, cancel := context.WithTimeout(c.Context, appCommandTimeout)
			defer cancel()
			r, err := report(ctx, rm, id)
			if err != nil {
				return err
			}
			yarnapp.WriteReport(c.App.Writer, r)
			return nil
		},
	}
}

func killCommand() *cli.Command {
	return &cli.Command{
		Name:      "kill",
		Usage:     "kill a YARN application and wait until it has ended",
		ArgsUsage: "APP_ID",
		Action: func(c *cli.Context) error {
			id, err := applicationArg(c)
			if err != nil {
				return err
			}
			rm, _, err := yarnapp.Connect()
			if err != nil {
				return err
			}
			defer rm.Close()
			ctx, cancel := context.WithTimeout(c.Context, appCommandTimeout)
			defer cancel()
			r, err := report(ctx, rm, id)
			if err != nil {
				return err
			}
			if yarnapp.Ended(r) {
				fmt.Fprintf(c.App.Writer, "%s had already ended: %s (%s)\n", yarn.ApplicationID(id), yarnapp.State(r), yarnapp.FinalStatus(r))
				return nil
			}
			// The RM answers "kill under way" until it has stopped every
			// container; ask until it says done, then report the end state.
			for {
				resp, err := rm.ForceKillApplication(ctx, &hadoopyarn.KillApplicationRequestProto{ApplicationId: id})
				if err != nil {
					return fmt.Errorf("killing %s: %w", yarn.ApplicationID(id), err)
				}
				if resp.GetIsKillCompleted() {
					break
				}
				if err := pause(ctx, 200*time.Millisecond); err != nil {
					return fmt.Errorf("killing %s: %w", yarn.ApplicationID(id), err)
				}
			}
			for {
				if r, err = report(ctx, rm, id); err != nil {
					return err
				}
				if yarnapp.Ended(r) {
					fmt.Fprintf(c.App.Writer, "%s %s\n", yarn.ApplicationID(id), yarnapp.State(r))
					return nil
				}
				if err := pause(ctx, 200*time.Millisecond); err != nil {
					return fmt.Errorf("waiting for %s to end: %w", yarn.ApplicationID(id), err)
				}
			}
		},
	}
}

func listCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list Spindle applications on YARN (running ones; --all for ended ones too)",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "all", Usage: "include applications that have ended"}},
		Action: func(c *cli.Context) error {
			rm, _, err := yarnapp.Connect()
			if err != nil {
				return err
			}
			defer rm.Close()
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
