package hadoopconf

import (
	"reflect"
	"testing"
)

func TestAuthentication(t *testing.T) {
	tests := []struct {
		props   string
		want    AuthMethod
		invalid string
	}{
		{"", AuthSimple, ""},
		{prop("hadoop.security.authentication", "Kerberos "), AuthKerberos, ""},
		{prop("hadoop.security.authentication", "simple"), AuthSimple, ""},
		{prop("hadoop.security.authentication", "token"), "", "token"},
	}
	for _, tt := range tests {
		c := confOf(t, Env{}, site(tt.props))
		got, err := c.Authentication()
		if tt.invalid != "" {
			wantValueError(t, err, "hadoop.security.authentication", tt.invalid)
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Authentication = %q, %v; want %q", got, err, tt.want)
		}
	}
}

func TestRPCProtection(t *testing.T) {
	tests := []struct {
		value   string // "-" for unset
		want    []string
		invalid bool
	}{
		{"-", []string{"auth"}, false},
		{"privacy", []string{"auth-conf"}, false},
		{"privacy, integrity ,Authentication", []string{"auth-conf", "auth-int", "auth"}, false},
		{"", []string{"auth"}, false},
		{"privacy,secret", nil, true},
		{"auth-conf", nil, true},
	}
	for _, tt := range tests {
		props := ""
		if tt.value != "-" {
			props = `<property name="hadoop.rpc.protection" value="` + tt.value + `"/>`
		}
		c := confOf(t, Env{}, site(props))
		got, err := c.RPCProtection()
		if tt.invalid {
			wantValueError(t, err, "hadoop.rpc.protection", tt.value)
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("RPCProtection(%q) = %q, %v; want %q", tt.value, got, err, tt.want)
		}
	}
}

func TestDefaultFS(t *testing.T) {
	tests := []struct {
		props   string
		want    string
		invalid string
	}{
		{"", "file:///", ""},
		{prop("fs.defaultFS", "hdfs://nn:8020"), "hdfs://nn:8020", ""},
		{prop("fs.default.name", "hdfs://old:8020"), "hdfs://old:8020", ""},
		{prop("fs.defaultFS", " nn:8020 "), "hdfs://nn:8020", ""},
		{prop("fs.defaultFS", "local"), "file:///", ""},
		{prop("fs.defaultFS", "viewfs://cluster/"), "viewfs://cluster/", ""},
		{prop("fs.defaultFS", "hdfs://%zz"), "", "hdfs://%zz"},
		{prop("fs.defaultFS", "/no/scheme"), "", "/no/scheme"},
		{`<property name="fs.defaultFS" value=""/>`, "", ""},
	}
	for _, tt := range tests {
		c := confOf(t, Env{}, site(tt.props))
		got, err := c.DefaultFS()
		if tt.want == "" {
			wantValueError(t, err, "fs.defaultFS", tt.invalid)
			continue
		}
		if err != nil || got.String() != tt.want {
			t.Errorf("DefaultFS = %v, %v; want %s", got, err, tt.want)
		}
	}
}
