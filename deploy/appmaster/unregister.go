package appmaster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sirupsen/logrus"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// finish runs BeforeUnregister with the freshest tokens, then
// unregisters with how the application ended, asking until the RM says
// done; the error is why it failed.
func finish(ctx context.Context, a appMaster, final core.Final, tokens []credentials.Token) error {
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if a.BeforeUnregister != nil {
		a.BeforeUnregister(fctx, final, tokens)
	}
	status := hadoopyarn.FinalApplicationStatusProto_APP_FAILED
	if final.Succeeded {
		status = hadoopyarn.FinalApplicationStatusProto_APP_SUCCEEDED
	}
	for {
		resp, err := a.RM.FinishApplicationMaster(fctx, &hadoopyarn.FinishApplicationMasterRequestProto{FinalApplicationStatus: status.Enum(), Diagnostics: proto.String(final.Diagnostics)})
		if err != nil {
			return fmt.Errorf("unregistering: %w", err)
		}
		if resp.GetIsUnregistered() {
			break
		}
		select {
		case <-fctx.Done():
			return fmt.Errorf("unregistering: %w", fctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
	a.Log.WithFields(logrus.Fields{"app": a.Core.AppID, "final_status": status.String()}).Infof("unregistered: %s", final.Diagnostics)
	if !final.Succeeded {
		return errors.New(final.Diagnostics)
	}
	return nil
}
