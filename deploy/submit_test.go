package deploy

import "testing"

func TestSubmitChecksTheNameAndPoolFlags(t *testing.T) {
	_, _, err := runSplit("submit", "--pool", "a\x01b", spec(t, oneTask))
	if err == nil || err.Error() != `--pool "a\x01b": contains a control character` {
		t.Errorf("err = %v, want the --pool flag's value refused as a spec's pool would be", err)
	}
}
