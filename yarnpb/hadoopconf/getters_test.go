package hadoopconf

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// wantValueError checks err is a *ValueError naming key and value.
func wantValueError(t *testing.T, err error, key, value string) {
	t.Helper()
	var ve *ValueError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want a *ValueError", err)
	}
	if ve.Key != key || ve.Value != value {
		t.Errorf("error names %s = %q, want %s = %q", ve.Key, ve.Value, key, value)
	}
	if !strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "r1.xml:") {
		t.Errorf("message %q does not name the key and file", err)
	}
}

func TestGetInt(t *testing.T) {
	tests := []struct {
		value   string
		want    int
		invalid bool
	}{
		{"42", 42, false}, {" -7 ", -7, false}, {"+3", 3, false}, {"0x1F", 31, false}, {"-0X10", -16, false},
		{"${n}", 5, false},
		{"", 0, true}, {"4.2", 0, true}, {"12k", 0, true}, {"0x", 0, true}, {"99999999999999999999", 0, true}, {"1_000", 0, true},
	}
	for _, tt := range tests {
		c := confOf(t, Env{}, site(prop("n", "5")+`<property name="k" value="`+tt.value+`"/>`))
		got, err := c.GetInt("k", -1)
		if tt.invalid {
			wantValueError(t, err, "k", tt.value)
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("GetInt(%q) = %d, %v; want %d", tt.value, got, err, tt.want)
		}
	}
	if got, err := New(Env{}).GetInt("k", 9); got != 9 || err != nil {
		t.Errorf("unset: %d, %v", got, err)
	}
}

func TestGetBool(t *testing.T) {
	tests := []struct {
		value   string
		want    bool
		invalid bool
	}{
		{"true", true, false}, {" TRUE ", true, false}, {"False", false, false}, {"", true, false}, // empty gives the default
		{"yes", false, true}, {"1", false, true}, {"ture", false, true},
	}
	for _, tt := range tests {
		c := confOf(t, Env{}, site(`<property name="k" value="`+tt.value+`"/>`))
		got, err := c.GetBool("k", true)
		if tt.invalid {
			wantValueError(t, err, "k", tt.value)
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("GetBool(%q) = %v, %v; want %v", tt.value, got, err, tt.want)
		}
	}
	if got, err := New(Env{}).GetBool("k", true); !got || err != nil {
		t.Errorf("unset: %v, %v", got, err)
	}
}

func TestGetDuration(t *testing.T) {
	tests := []struct {
		value   string
		want    time.Duration
		invalid bool
	}{
		{"1500", 1500 * time.Millisecond, false}, // no unit: the caller's
		{"10ms", 10 * time.Millisecond, false},
		{"10s", 10 * time.Second, false},
		{" 2M ", 2 * time.Minute, false},
		{"3h", 3 * time.Hour, false},
		{"1d", 24 * time.Hour, false},
		{"5us", 5 * time.Microsecond, false},
		{"7ns", 7, false},
		{"-1s", -time.Second, false},
		{"1.5s", 0, true}, {"s", 0, true}, {"10 sec", 0, true}, {"1w", 0, true}, {"", 0, true},
		{"106752d", 0, true}, // past time.Duration's range
	}
	for _, tt := range tests {
		c := confOf(t, Env{}, site(`<property name="k" value="`+tt.value+`"/>`))
		got, err := c.GetDuration("k", time.Hour, time.Millisecond)
		if tt.invalid {
			wantValueError(t, err, "k", tt.value)
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("GetDuration(%q) = %v, %v; want %v", tt.value, got, err, tt.want)
		}
	}
	if got, err := New(Env{}).GetDuration("k", time.Hour, time.Second); got != time.Hour || err != nil {
		t.Errorf("unset: %v, %v", got, err)
	}
}

func TestGetStrings(t *testing.T) {
	c := confOf(t, Env{}, site(prop("k", " a , b,,c\n d ,")+`<property name="e" value=""/>`))
	if got, err := c.GetStrings("k"); err != nil || !reflect.DeepEqual(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("GetStrings = %q, %v", got, err)
	}
	if got, err := c.GetStrings("e"); err != nil || got != nil {
		t.Errorf("GetStrings(empty) = %q, %v", got, err)
	}
	if got, err := c.GetStrings("unset"); err != nil || got != nil {
		t.Errorf("GetStrings(unset) = %q, %v", got, err)
	}
}

func TestGettersReportCycles(t *testing.T) {
	c := confOf(t, Env{}, site(prop("a", "${b}")+prop("b", "${a}")))
	if _, err := c.GetInt("a", 0); err == nil {
		t.Error("GetInt on a cycle succeeded")
	}
	if _, err := c.GetStrings("a"); err == nil {
		t.Error("GetStrings on a cycle succeeded")
	}
	if got := c.GetDefault("a", "d"); got != "${b}" {
		t.Errorf("GetDefault = %q", got)
	}
	if got := c.GetDefault("unset", "d"); got != "d" {
		t.Errorf("GetDefault(unset) = %q", got)
	}
}
