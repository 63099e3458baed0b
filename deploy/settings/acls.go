package settings

import (
	"errors"
	"os/user"
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// accessList is one of Hadoop's access control lists: "users groups",
// comma-separated within each part, "*" for everyone
// (org.apache.hadoop.security.authorize.AccessControlList).
type accessList struct {
	all           bool
	users, groups []string
}

func parseAccessList(s string) accessList {
	if strings.TrimSpace(s) == "*" {
		return accessList{all: true}
	}
	users, groups, _ := strings.Cut(strings.TrimLeft(s, " \t"), " ")
	if strings.HasPrefix(s, " ") { // " group1,group2": groups only
		users, groups = "", strings.TrimSpace(s)
	}
	var l accessList
	for _, u := range strings.Split(users, ",") {
		if u = strings.TrimSpace(u); u != "" {
			l.users = append(l.users, u)
		}
	}
	for _, g := range strings.Split(groups, ",") {
		if g = strings.TrimSpace(g); g != "" {
			l.groups = append(l.groups, g)
		}
	}
	return l
}

// String writes the list as Hadoop reads it.
func (l accessList) String() string {
	if l.all {
		return "*"
	}
	return strings.Join(l.users, ",") + " " + strings.Join(l.groups, ",")
}

// AppACLs are who may view and who may modify an application, as Spark's
// spark.acls.enable, spark.ui.view.acls and spark.modify.acls say: off,
// everyone who reaches it may; on, its owner and those listed.
type AppACLs struct {
	enabled      bool
	owner        string
	view, modify accessList
	// groupsOf finds a user's groups (the OS's, as Hadoop's default
	// ShellBasedUnixGroupsMapping does).
	groupsOf func(user string) []string
}

// ACLs reads the application's ACLs; owner may always view and modify.
func ACLs(conf *config.Config, owner string) (AppACLs, error) {
	s := Read(conf)
	a := AppACLs{enabled: s.Bool("spindle.acls.enable"), owner: owner,
		view: parseAccessList(s.String("spindle.ui.view.acls")), modify: parseAccessList(s.String("spindle.modify.acls")), groupsOf: osGroups}
	a.view.users = append(a.view.users, owner)
	a.modify.users = append(a.modify.users, owner)
	return a, s.Err()
}

// YARN is the application's ACLs as its submission gives them to YARN,
// which then hands client-to-AM tokens and kills to whom they allow; none
// when checks are off, leaving YARN's own defaults.
func (a AppACLs) YARN() []*hadoopyarn.ApplicationACLMapProto {
	if !a.enabled {
		return nil
	}
	return []*hadoopyarn.ApplicationACLMapProto{
		{AccessType: hadoopyarn.ApplicationAccessTypeProto_APPACCESS_VIEW_APP.Enum(), Acl: proto.String(a.view.String())},
		{AccessType: hadoopyarn.ApplicationAccessTypeProto_APPACCESS_MODIFY_APP.Enum(), Acl: proto.String(a.modify.String())},
	}
}

// Check says whether client, a principal (alice@REALM) or a user name, may
// view the application, or modify it.
func (a AppACLs) Check(client string, modify bool) error {
	if !a.enabled {
		return nil
	}
	name, _, _ := strings.Cut(client, "@")
	name, _, _ = strings.Cut(name, "/")
	l, what := a.view, "view"
	if modify {
		l, what = a.modify, "modify"
	}
	if l.all || slices.Contains(l.users, name) {
		return nil
	}
	if len(l.groups) > 0 && a.groupsOf != nil {
		for _, g := range a.groupsOf(name) {
			if slices.Contains(l.groups, g) {
				return nil
			}
		}
	}
	return errors.New("may not " + what + " this application (spindle.acls.enable; spindle.ui.view.acls and spindle.modify.acls name who may)")
}

// GroupsFrom is a with its users' groups found by groupsOf: a test's
// stand-in for the OS's.
func (a AppACLs) GroupsFrom(groupsOf func(user string) []string) AppACLs {
	a.groupsOf = groupsOf
	return a
}

// osGroups are user's groups on this machine; none when it is unknown here.
func osGroups(name string) []string {
	u, err := user.Lookup(name)
	if err != nil {
		return nil
	}
	ids, err := u.GroupIds()
	if err != nil {
		return nil
	}
	var names []string
	for _, id := range ids {
		if g, err := user.LookupGroupId(id); err == nil {
			names = append(names, g.Name)
		}
	}
	return names
}
