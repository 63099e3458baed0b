package config

import (
	"fmt"
	"strings"
)

// YARN's own names for the resource types its NodeManagers' plugins
// count: a resource of that name maps there without a mapping.
var builtinResourceTypes = map[string]string{GPUResource: "yarn.io/gpu", "fpga": "yarn.io/fpga"}

// ParseResourceMapping reads spindle.yarn.resourceMapping,
// "NAME=TYPE,...": each resource name (ResourceNameRule) once, each to a
// YARN resource type, which has no '=', ',' or space.
func ParseResourceMapping(s string) (map[string]string, error) {
	m := map[string]string{}
	if strings.TrimSpace(s) == "" {
		return m, nil
	}
	for _, entry := range strings.Split(s, ",") {
		name, typ, ok := strings.Cut(strings.TrimSpace(entry), "=")
		switch {
		case !ok || typ == "" || strings.ContainsAny(typ, "= \t"):
			return nil, fmt.Errorf("%q: want NAME=TYPE, as tpu=example.com/tpu", entry)
		case m[name] != "":
			return nil, fmt.Errorf("%s is mapped twice", name)
		}
		if err := CheckResourceName(name); err != nil {
			return nil, err
		}
		m[name] = typ
	}
	return m, nil
}

// YARNResourceType is the YARN resource type resource name is asked as:
// the mapping's, else YARN's own name for gpu and fpga; "" for a
// resource neither names.
func YARNResourceType(mapping map[string]string, name string) string {
	if t := mapping[name]; t != "" {
		return t
	}
	return builtinResourceTypes[name]
}

// resourceMapping is the check on spindle.yarn.resourceMapping.
func resourceMapping(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("internal error: mapping check given %T", v)
	}
	_, err := ParseResourceMapping(s)
	return err
}
