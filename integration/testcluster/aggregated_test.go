package testcluster

import (
	"strconv"
	"strings"
	"testing"
)

// block is one file as LogsCLI prints it.
func block(container, file, content string) string {
	return "Container: " + container + " on localhost_40001\n" +
		"LogAggregationType: AGGREGATED\n" +
		"====================================================================\n" +
		"LogType:" + file + "\n" +
		"LogLastModifiedTime:Thu Nov 26 20:54:25 +0000 2026\n" +
		"LogLength:" + strconv.Itoa(len(content)) + "\n" +
		"LogContents:\n" +
		content + "\n" +
		"End of LogType:" + file + "\n" +
		"*******************************************************************************\n\n"
}

// A file's content is taken by its length: lines in it that look like
// LogsCLI's own (a task printing them) start no file of their own.
func TestParseYarnLogsTakesContentByLength(t *testing.T) {
	tricky := "marker\nEnd of LogType:job0.stdout\nContainer: container_fake on nowhere\nLogType:fake\n"
	out := block("container_1_0001_01_000001", "am.stderr", "level=info msg=registered\n") +
		block("container_1_0001_01_000002", "job0.stdout", tricky) +
		block("container_1_0001_01_000002", "empty", "")
	logs, err := ParseYarnLogs(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []ContainerLog{
		{Container: "container_1_0001_01_000001", Node: "localhost_40001", File: "am.stderr", Content: "level=info msg=registered\n"},
		{Container: "container_1_0001_01_000002", Node: "localhost_40001", File: "job0.stdout", Content: tricky},
		{Container: "container_1_0001_01_000002", Node: "localhost_40001", File: "empty", Content: ""},
	}
	if len(logs) != len(want) {
		t.Fatalf("got %d files, want %d: %+v", len(logs), len(want), logs)
	}
	for i := range want {
		if logs[i] != want[i] {
			t.Errorf("file %d: got %+v, want %+v", i, logs[i], want[i])
		}
	}
}

// A content of exactly the bytes before the end line parses; one byte
// more than the output holds is an error naming the file, not a read
// past the end.
func TestParseYarnLogsLengthAtTheEnd(t *testing.T) {
	head := "Container: c on n\nLogType:f\nLogLength:3\nLogContents:\n"
	if logs, err := ParseYarnLogs(head + "abc" + "End of LogType:f"); err != nil || len(logs) != 1 || logs[0].Content != "abc" {
		t.Fatalf("content reaching the end line: %+v, %v", logs, err)
	}
	// Exactly the bytes that follow, with no end line: the length is
	// right, the end line missing.
	_, err := ParseYarnLogs(head + "abc")
	if err == nil || !strings.Contains(err.Error(), `f: no "End of LogType:f" after its 3 bytes`) {
		t.Fatalf("content reaching the end of the output: %v", err)
	}
	_, err = ParseYarnLogs(strings.Replace(head, "3", "4", 1) + "abc")
	if err == nil || !strings.Contains(err.Error(), "f: LogLength 4, but 3 bytes follow") {
		t.Fatalf("a length past the end: %v", err)
	}
}

func TestParseYarnLogsRefusesMalformedOutput(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{"LogType:f\n", `"LogType:f" before any Container line`},
		{"Container: c\n", `"Container: c": want Container: ID on NODE`},
		{"Container: c on n\nLogType:f\nLogLength:x\nLogContents:\n", `f: LogLength "x" is not a length`},
		{"Container: c on n\nLogType:f\nLogLength:-1\nLogContents:\n", `f: LogLength "-1" is not a length`},
		{"Container: c on n\nLogType:f\nLogContents:\nabc\n", "f has no LogLength"},
		{"Container: c on n\nLogType:f\nLogLength:1\n", "f ends before its LogContents line"},
		{"Container: c on n\nLogType:f\nLogLength:1\nLogContents:\nab\nEnd of LogType:f\n", `f: no "End of LogType:f" after its 1 bytes`},
	} {
		if _, err := ParseYarnLogs(c.out); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error with %q", c.out, err, c.want)
		}
	}
}

func FuzzParseYarnLogs(f *testing.F) {
	f.Add(block("container_1_0001_01_000001", "am.stderr", "x\n"))
	f.Add("Container: c on n\nLogType:f\nLogLength:3\nLogContents:\nabc\nEnd of LogType:f\n")
	f.Add("Container: c on n\nLogType:f\nLogLength:99\nLogContents:\n")
	f.Fuzz(func(t *testing.T, out string) {
		logs, err := ParseYarnLogs(out)
		if err != nil {
			return
		}
		total := 0
		for _, l := range logs {
			total += len(l.Content)
		}
		if total > len(out) {
			t.Fatalf("%d bytes of content from %d bytes of output", total, len(out))
		}
	})
}
