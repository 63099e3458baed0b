package deploy

import (
	"context"
	"fmt"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
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
	r, err := yarnapp.Report(ctx, conn.RM, id)
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
				return yarnapp.Kill(ctx, c.App.Writer, rm, id, r)
			})
		},
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
