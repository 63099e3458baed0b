package staging

import (
	"fmt"
	"strings"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// File is one local file to ship.
type File struct {
	// Local is the file's path on the submitting machine.
	Local string
	// Name is its name in the staging directory and in the container's
	// working directory (the LocalResource's key).
	Name string
	// Type is FILE (the zero value means FILE too) or ARCHIVE, which the
	// NodeManager unpacks into a directory called Name.
	Type hadoopyarn.LocalResourceTypeProto
	// Executable makes the staged copy executable even when the local file
	// is not; a local file with an execute bit stays executable anyway.
	Executable bool
}

// resourceType is f's type with the zero value read as FILE.
func (f File) resourceType() hadoopyarn.LocalResourceTypeProto {
	if f.Type == 0 {
		return hadoopyarn.LocalResourceTypeProto_FILE
	}
	return f.Type
}

// checkFiles refuses what would be staged wrongly or not at all: an empty
// local path, an unsupported type, a name that is not one plain path
// component, and two files with the same name (the second would replace
// the first in the container).
func checkFiles(files []File) error {
	seen := make(map[string]string, len(files))
	for _, f := range files {
		if f.Local == "" {
			return fmt.Errorf("staging: file %q: no local path", f.Name)
		}
		if err := checkName(f.Name); err != nil {
			return fmt.Errorf("staging: %s: %w", f.Local, err)
		}
		if t := f.resourceType(); t != hadoopyarn.LocalResourceTypeProto_FILE && t != hadoopyarn.LocalResourceTypeProto_ARCHIVE {
			return fmt.Errorf("staging: %s: resource type %v is not supported (FILE or ARCHIVE)", f.Local, t)
		}
		if prev, dup := seen[f.Name]; dup {
			return fmt.Errorf("staging: %s and %s both have the name %q in the container", prev, f.Local, f.Name)
		}
		seen[f.Name] = f.Local
	}
	return nil
}

// checkName accepts a name that is one path component, in the staging
// directory and in the working directory alike. HDFS refuses ':' in a
// path component, so it is refused here before anything is uploaded.
func checkName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty name")
	case name == "." || name == "..":
		return fmt.Errorf("name %q is not a file name", name)
	case strings.ContainsAny(name, "/:\x00"):
		return fmt.Errorf("name %q contains '/', ':' or NUL; it must be a plain file name", name)
	}
	return nil
}
