package appmaster

import (
	"context"
	"io"
	"reflect"
	"sync"
	"testing"

	"github.com/sirupsen/logrus"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// At its end the AM hands BeforeUnregister (removing the staging
// directory) the freshest delegation tokens, the loop's, not those it
// started with, then unregisters with how the application ended.
func TestFinishHandsOnTheFreshTokensThenUnregisters(t *testing.T) {
	var mu sync.Mutex
	var finished []*hadoopyarn.FinishApplicationMasterRequestProto
	srv := &ipctest.Server{Protocol: yarn.ApplicationMasterProtocol, Handler: func(method string, body []byte) (proto.Message, error) {
		if method != "finishApplicationMaster" {
			return nil, &ipc.RemoteError{Class: "org.apache.hadoop.ipc.RpcNoSuchMethodException", Message: method}
		}
		req := &hadoopyarn.FinishApplicationMasterRequestProto{}
		if err := proto.Unmarshal(body, req); err != nil {
			return nil, err
		}
		mu.Lock()
		defer mu.Unlock()
		finished = append(finished, req)
		return &hadoopyarn.FinishApplicationMasterResponseProto{IsUnregistered: proto.Bool(true)}, nil
	}}
	rm, err := yarn.NewAMRMClient([]string{srv.Start(t)}, ipc.Options{Auth: ipc.Auth{User: "am", Tokens: []*hadoopcommon.TokenProto{}}})
	if err != nil {
		t.Fatal(err)
	}
	defer rm.Close()
	started := []credentials.Token{{Alias: "nn", Kind: "HDFS_DELEGATION_TOKEN", Identifier: []byte("old")}}
	fresh := []credentials.Token{{Alias: "nn", Kind: "HDFS_DELEGATION_TOKEN", Identifier: []byte("new")}}
	var handed []credentials.Token
	quiet := logrus.New()
	quiet.SetOutput(io.Discard)
	a := appMaster{RM: rm, Tokens: started, Log: quiet,
		BeforeUnregister: func(_ context.Context, _ core.Final, tokens []credentials.Token) { handed = tokens }}
	err = finish(context.Background(), a, core.Final{Diagnostics: "task 0 failed"}, fresh)
	if err == nil || err.Error() != "task 0 failed" {
		t.Errorf("err = %v, want the application's failure", err)
	}
	if !reflect.DeepEqual(handed, fresh) {
		t.Errorf("BeforeUnregister got %v, want the fresh tokens", handed)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(finished) != 1 || finished[0].GetFinalApplicationStatus() != hadoopyarn.FinalApplicationStatusProto_APP_FAILED ||
		finished[0].GetDiagnostics() != "task 0 failed" {
		t.Errorf("unregistered with %v; want once, FAILED, saying why", finished)
	}
}
