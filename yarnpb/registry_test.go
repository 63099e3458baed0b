package yarnpb_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/colinmarc/hdfs/v2" // registers Hadoop's own protos: package hadoop.common, file Security.proto
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoophdfs"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// ourFiles are Spindle's generated proto files. This test binary links them
// with colinmarc/hdfs, so it only starts if none collides with Hadoop's.
var ourFiles = []protoreflect.FileDescriptor{
	hadoopcommon.File_yarnpb_hadoopcommon_ipc_connection_context_proto,
	hadoopcommon.File_yarnpb_hadoopcommon_protobuf_rpc_engine_proto,
	hadoopcommon.File_yarnpb_hadoopcommon_rpc_header_proto,
	hadoopcommon.File_yarnpb_hadoopcommon_security_proto,
	hadoophdfs.File_yarnpb_hadoophdfs_namenode_proto,
	hadoopyarn.File_yarnpb_hadoopyarn_protocols_proto,
	hadoopyarn.File_yarnpb_hadoopyarn_yarn_protos_proto,
	hadoopyarn.File_yarnpb_hadoopyarn_yarn_security_token_proto,
	hadoopyarn.File_yarnpb_hadoopyarn_yarn_service_protos_proto,
}

// TestRegistryHoldsBoth checks the global registry: each of our files is
// registered under its yarnpb/ path in a spindle.hadoop.* package and owns
// every name it declares, beside Hadoop's own hadoop.common.TokenProto. With
// GOLANG_PROTOBUF_REGISTRATION_CONFLICT=warn a collision does not panic but
// leaves a name or path to the other file, which this catches.
func TestRegistryHoldsBoth(t *testing.T) {
	for _, fd := range ourFiles {
		path := fd.Path()
		if !strings.HasPrefix(path, "yarnpb/") || !strings.HasPrefix(string(fd.Package()), "spindle.hadoop.") {
			t.Errorf("%s: package %s; want a yarnpb/ path and a spindle.hadoop.* package", path, fd.Package())
		}
		if got, err := protoregistry.GlobalFiles.FindFileByPath(path); err != nil || got != fd {
			t.Errorf("%s: not registered as our file (%v)", path, err)
		}
		for _, name := range declaredNames(fd) {
			d, err := protoregistry.GlobalFiles.FindDescriptorByName(name)
			if err != nil {
				t.Errorf("%s: %s is not registered: %v", path, name, err)
			} else if d.ParentFile() != fd {
				t.Errorf("%s: registry resolves %s to %s, not to our file", path, name, d.ParentFile().Path())
			}
		}
	}
	protoregistry.GlobalFiles.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		if strings.HasPrefix(string(fd.Package()), "spindle.") != strings.HasPrefix(fd.Path(), "yarnpb/") {
			t.Errorf("%s: package %s; spindle.* packages belong under yarnpb/ and nowhere else", fd.Path(), fd.Package())
		}
		return true
	})

	hdfsToken, err := protoregistry.GlobalFiles.FindDescriptorByName("hadoop.common.TokenProto")
	if err != nil {
		t.Fatalf("colinmarc/hdfs's hadoop.common.TokenProto is not registered: %v", err)
	}
	if path := hdfsToken.ParentFile().Path(); path != "Security.proto" {
		t.Errorf("hadoop.common.TokenProto comes from %s, want colinmarc/hdfs's Security.proto", path)
	}
}

// declaredNames lists the top-level names a file declares.
func declaredNames(fd protoreflect.FileDescriptor) []protoreflect.FullName {
	var names []protoreflect.FullName
	for i := 0; i < fd.Messages().Len(); i++ {
		names = append(names, fd.Messages().Get(i).FullName())
	}
	for i := 0; i < fd.Enums().Len(); i++ {
		names = append(names, fd.Enums().Get(i).FullName())
	}
	for i := 0; i < fd.Services().Len(); i++ {
		names = append(names, fd.Services().Get(i).FullName())
	}
	return names
}

// TestTokenCrossesPackages shows why the renamed package is harmless: proto
// package names never travel, so our TokenProto's bytes read as Hadoop's.
func TestTokenCrossesPackages(t *testing.T) {
	ours := &hadoopcommon.TokenProto{
		Identifier: []byte{1, 2, 3},
		Password:   []byte{4, 5},
		Kind:       proto.String("YARN_AM_RM_TOKEN"),
		Service:    proto.String("rm:8030"),
	}
	raw, err := proto.Marshal(ours)
	if err != nil {
		t.Fatal(err)
	}
	d, err := protoregistry.GlobalFiles.FindDescriptorByName("hadoop.common.TokenProto")
	if err != nil {
		t.Fatal(err)
	}
	theirs := dynamicpb.NewMessage(d.(protoreflect.MessageDescriptor))
	if err := proto.Unmarshal(raw, theirs); err != nil {
		t.Fatalf("Hadoop's TokenProto cannot read ours: %v", err)
	}
	fields := theirs.Descriptor().Fields()
	if got := theirs.Get(fields.ByName("identifier")).Bytes(); !bytes.Equal(got, ours.Identifier) {
		t.Errorf("identifier = %v, want %v", got, ours.Identifier)
	}
	if got := theirs.Get(fields.ByName("password")).Bytes(); !bytes.Equal(got, ours.Password) {
		t.Errorf("password = %v, want %v", got, ours.Password)
	}
	if got := theirs.Get(fields.ByName("kind")).String(); got != ours.GetKind() {
		t.Errorf("kind = %q, want %q", got, ours.GetKind())
	}
	if got := theirs.Get(fields.ByName("service")).String(); got != ours.GetService() {
		t.Errorf("service = %q, want %q", got, ours.GetService())
	}
}

// TestProgramWithBothStarts builds and runs testdata/bothprotos, a program
// importing our protos and colinmarc/hdfs, in the runtime's default mode
// (GOLANG_PROTOBUF_REGISTRATION_CONFLICT unset), where a registration
// conflict panics at start-up.
func TestProgramWithBothStarts(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go tool to build testdata/bothprotos: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "bothprotos")
	build := exec.Command(goTool, "build", "-o", bin, "./testdata/bothprotos")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/bothprotos: %v\n%s", err, out)
	}

	run := exec.Command(bin)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOLANG_PROTOBUF_REGISTRATION_CONFLICT=") {
			run.Env = append(run.Env, kv)
		}
	}
	var stderr bytes.Buffer
	run.Stderr = &stderr
	out, err := run.Output()
	if err != nil {
		t.Fatalf("bothprotos: %v\n%s", err, stderr.Bytes())
	}
	want := "spindle.hadoop.common.TokenProto yarnpb/hadoopcommon/security.proto\n" +
		"spindle.hadoop.yarn.ContainerProto yarnpb/hadoopyarn/yarn_protos.proto\n" +
		"hadoop.common.TokenProto Security.proto\n"
	if string(out) != want {
		t.Errorf("bothprotos printed\n%s\nwant\n%s", out, want)
	}
}
