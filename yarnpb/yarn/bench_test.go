package yarn_test

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// allocateWithAsks is an AM heartbeat asking for n kinds of GPU containers.
func allocateWithAsks(n int) *hadoopyarn.AllocateRequestProto {
	req := &hadoopyarn.AllocateRequestProto{ResponseId: proto.Int32(42), Progress: proto.Float32(0.5)}
	for i := 0; i < n; i++ {
		req.Ask = append(req.Ask, &hadoopyarn.ResourceRequestProto{
			Priority:            &hadoopyarn.PriorityProto{Priority: proto.Int32(int32(i))},
			ResourceName:        proto.String("*"),
			Capability:          yarn.NewResource(4096, 4, map[string]int64{yarn.GPU: 1}),
			NumContainers:       proto.Int32(8),
			RelaxLocality:       proto.Bool(true),
			AllocationRequestId: proto.Int64(int64(i)),
			NodeLabelExpression: proto.String("gpu"),
		})
	}
	return req
}

func BenchmarkAllocateRequest100AsksEncode(b *testing.B) {
	req := allocateWithAsks(100)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := proto.Marshal(req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAllocateRequest100AsksDecode(b *testing.B) {
	data, err := proto.Marshal(allocateWithAsks(100))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := proto.Unmarshal(data, &hadoopyarn.AllocateRequestProto{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAllocateRoundTrip measures allocate calls per second against an
// in-process server on loopback: framing, the connection and the protobuf
// work at both ends, with 100 asks each way.
func BenchmarkAllocateRoundTrip(b *testing.B) {
	resp := &hadoopyarn.AllocateResponseProto{ResponseId: proto.Int32(43), NumClusterNodes: proto.Int32(2)}
	srv := &ipctest.Server{Protocol: yarn.ApplicationMasterProtocol, Handler: func(method string, body []byte) (proto.Message, error) {
		req := &hadoopyarn.AllocateRequestProto{}
		if err := proto.Unmarshal(body, req); err != nil {
			return nil, err
		}
		return resp, nil
	}}
	addr := srv.Start(b)
	am, err := yarn.NewAMRMClient([]string{addr}, ipc.Options{Auth: ipc.Auth{User: "bench"}})
	if err != nil {
		b.Fatal(err)
	}
	defer am.Close()
	req := allocateWithAsks(100)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := am.Allocate(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}
