// Command bothprotos links Spindle's generated Hadoop protos together with
// github.com/colinmarc/hdfs/v2, which registers Hadoop's own, and prints one
// message of each with the file that declares it. Go's protobuf runtime
// panics before main on a registration conflict, so printing at all is the
// proof; registry_test.go builds and runs it.
package main

import (
	"fmt"
	"os"

	_ "github.com/colinmarc/hdfs/v2"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

func main() {
	hdfsToken, err := protoregistry.GlobalFiles.FindDescriptorByName("hadoop.common.TokenProto")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bothprotos:", err)
		os.Exit(1)
	}
	for _, d := range []protoreflect.Descriptor{
		(&hadoopcommon.TokenProto{}).ProtoReflect().Descriptor(),
		(&hadoopyarn.ContainerProto{}).ProtoReflect().Descriptor(),
		hdfsToken,
	} {
		fmt.Println(d.FullName(), d.ParentFile().Path())
	}
}
