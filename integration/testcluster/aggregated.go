package testcluster

import (
	"fmt"
	"strconv"
	"strings"
)

// ContainerLog is one file of one container's log directory, as `yarn
// logs` prints it from the aggregated logs.
type ContainerLog struct {
	Container string // container_..._000001
	Node      string // the NodeManager, host_port
	File      string // its name in the container's log directory
	Content   string
}

// ParseYarnLogs splits what `yarn logs -applicationId` printed into its
// files. LogsCLI prints each file as
//
//	Container: CONTAINER on NODE
//	LogAggregationType: AGGREGATED
//	====...
//	LogType:FILE
//	LogLastModifiedTime:...
//	LogLength:N
//	LogContents:
//	N bytes of the file
//	End of LogType:FILE
//
// and a file's content may hold any of those lines, so the content is
// taken by its length, never by looking for the end line.
func ParseYarnLogs(out string) ([]ContainerLog, error) {
	var logs []ContainerLog
	var container, node string
	for pos := 0; pos < len(out); {
		line, next := lineAt(out, pos)
		switch {
		case strings.HasPrefix(line, "Container: "):
			var ok bool
			container, node, ok = strings.Cut(strings.TrimPrefix(line, "Container: "), " on ")
			if !ok || container == "" {
				return nil, fmt.Errorf("yarn logs output, byte %d: %q: want Container: ID on NODE", pos, line)
			}
		case strings.HasPrefix(line, "LogType:"):
			if container == "" {
				return nil, fmt.Errorf("yarn logs output, byte %d: %q before any Container line", pos, line)
			}
			l := ContainerLog{Container: container, Node: node, File: strings.TrimPrefix(line, "LogType:")}
			var err error
			if l.Content, next, err = logContent(out, next, l.File); err != nil {
				return nil, err
			}
			logs = append(logs, l)
		}
		pos = next
	}
	return logs, nil
}

// lineAt returns the line of out starting at pos, without its newline,
// and where the next one starts.
func lineAt(out string, pos int) (string, int) {
	if i := strings.IndexByte(out[pos:], '\n'); i >= 0 {
		return out[pos : pos+i], pos + i + 1
	}
	return out[pos:], len(out)
}

// logContent reads a file's header from pos (up to LogContents:), its
// LogLength bytes, and the End of LogType line that must follow, and
// returns the content and where the output goes on.
func logContent(out string, pos int, file string) (string, int, error) {
	length := -1
	for {
		if pos >= len(out) {
			return "", 0, fmt.Errorf("yarn logs output: %s ends before its LogContents line", file)
		}
		line, next := lineAt(out, pos)
		if v, ok := strings.CutPrefix(line, "LogLength:"); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return "", 0, fmt.Errorf("yarn logs output, byte %d: %s: LogLength %q is not a length", pos, file, v)
			}
			length = n
		}
		pos = next
		if line == "LogContents:" {
			break
		}
	}
	if length < 0 {
		return "", 0, fmt.Errorf("yarn logs output, byte %d: %s has no LogLength before its contents", pos, file)
	}
	if length > len(out)-pos {
		return "", 0, fmt.Errorf("yarn logs output, byte %d: %s: LogLength %d, but %d bytes follow", pos, file, length, len(out)-pos)
	}
	content, rest := out[pos:pos+length], out[pos+length:]
	// LogsCLI ends the content with a newline of its own, then the end line.
	trimmed := strings.TrimLeft(rest, "\n")
	if end := "End of LogType:" + file; !strings.HasPrefix(trimmed, end) {
		return "", 0, fmt.Errorf("yarn logs output, byte %d: %s: no %q after its %d bytes", pos+length, file, end, length)
	}
	return content, pos + length + (len(rest) - len(trimmed)), nil
}
