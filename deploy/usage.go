package deploy

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/internal/shellword"
	"github.com/spindle-yarn/spindle/internal/suggest"
)

// The flag package's errors, which urfave/cli passes on as they are.
var (
	undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	flagNoValue   = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
	flagBadValue  = regexp.MustCompile(`^invalid (?:boolean )?value (".*") for flag -+([^:]*): (.*)$`)
)

// usageError rewords a command's flag error as one line naming the flag as
// it is typed, with a did-you-mean for an unknown one; urfave/cli would
// print its help text after it instead. It is every command's OnUsageError.
func usageError(c *cli.Context, err error, _ bool) error {
	cmd := c.Command
	prefix, help := cmd.Name+": ", cmd.HelpName+" --help"
	if cmd.HelpName == c.App.Name { // the root, whose Name is the app's
		prefix = ""
	}
	msg := err.Error()
	if m := undefinedFlag.FindStringSubmatch(msg); m != nil {
		var names []string
		for _, f := range cmd.Flags {
			names = append(names, f.Names()...)
		}
		hint := ""
		if near := nearest(m[1], names); near != "" {
			hint = "; did you mean " + dashed(near) + "?"
		}
		return fmt.Errorf("%sunknown flag %s%s ('%s' lists the flags)", prefix, dashed(m[1]), hint, help)
	}
	if m := flagNoValue.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("%s%s needs a value", prefix, dashed(m[1]))
	}
	if m := flagBadValue.FindStringSubmatch(msg); m != nil {
		v, _ := strconv.Unquote(m[1])
		why := "not a valid value"
		if m[3] != "parse error" { // urfave/cli's word for any value its flag cannot parse
			why += " (" + m[3] + ")"
		}
		return fmt.Errorf("%s%s %s: %s", prefix, dashed(m[2]), shellword.Quote(v), why)
	}
	return fmt.Errorf("%s%w ('%s' lists the flags)", prefix, err, help)
}

// unknownCommand is the error for a first argument that is no command.
func unknownCommand(c *cli.Context, name string) error {
	var names []string
	for _, cmd := range c.App.VisibleCommands() {
		names = append(names, cmd.Names()...)
	}
	hint := ""
	if near := nearest(name, names); near != "" {
		hint = "; did you mean " + near + "?"
	}
	return fmt.Errorf("unknown command %q%s ('spindle help' lists the commands)", name, hint)
}

// nearest is the name closest to typed, "" when none is near: a name
// differing only in case, or by an edit distance up to half typed's length
// (at most 3), so that short typos are caught and unrelated words are not.
func nearest(typed string, names []string) string {
	limit := min(3, len(typed)/2) + 1
	best := ""
	for _, n := range names {
		if strings.EqualFold(typed, n) {
			return n
		}
		if d := suggest.Distance(typed, n, limit); d < limit {
			best, limit = n, d
		}
	}
	return best
}

// dashed is a flag's name as it is typed: -h, --master.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// flagsAfterSpec refuses submit's arguments when flags follow the job spec,
// which urfave/cli does not read as flags (spark-submit would pass them to
// the application; a spec takes none), showing the command with them
// moved first.
func flagsAfterSpec(c *cli.Context, args []string) error {
	for i := 1; i < len(args); i++ {
		if a := args[i]; len(a) > 1 && strings.HasPrefix(a, "-") && a != "--" {
			fixed := "spindle submit "
			if c.NumFlags() > 0 {
				fixed += "... "
			}
			fixed += shellword.Join(args[i:]) + " " + shellword.Join(args[:i])
			return fmt.Errorf("%s comes after the job spec %s, where flags are not read; put them first: %s", a, args[0], fixed)
		}
	}
	return nil
}
