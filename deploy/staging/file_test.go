package staging

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

func TestCheckFiles(t *testing.T) {
	ok := []File{
		{Local: "/bin/spindle", Name: "spindle", Executable: true},
		{Local: "job.yaml", Name: "job.yaml", Type: hadoopyarn.LocalResourceTypeProto_FILE},
		{Local: "env.tgz", Name: "env", Type: hadoopyarn.LocalResourceTypeProto_ARCHIVE},
		{Local: "x", Name: ".hidden"},
	}
	if err := checkFiles(ok); err != nil {
		t.Fatalf("checkFiles(valid files) = %v", err)
	}
	for _, tc := range []struct {
		files []File
		want  string // in the error
	}{
		{[]File{{Local: "a", Name: ""}}, "a: empty name"},
		{[]File{{Local: "a", Name: "."}}, `a: name "."`},
		{[]File{{Local: "a", Name: ".."}}, `a: name ".."`},
		{[]File{{Local: "a", Name: "sub/a"}}, `a: name "sub/a" contains '/'`},
		{[]File{{Local: "a", Name: "c:d"}}, `a: name "c:d"`},
		{[]File{{Local: "a", Name: "x\x00y"}}, `a: name "x\x00y"`},
		{[]File{{Local: "", Name: "a"}}, `file "a": no local path`},
		{[]File{{Local: "a", Name: "a", Type: hadoopyarn.LocalResourceTypeProto_PATTERN}}, "a: resource type PATTERN is not supported"},
		{[]File{{Local: "one/job.yaml", Name: "job.yaml"}, {Local: "two/job.yaml", Name: "job.yaml"}}, `one/job.yaml and two/job.yaml both have the name "job.yaml"`},
	} {
		err := checkFiles(tc.files)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("checkFiles(%+v) = %v, want an error containing %q", tc.files, err, tc.want)
		}
	}
}
