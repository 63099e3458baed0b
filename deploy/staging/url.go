package staging

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// origin is the scheme and authority every resource URL shares: those of
// fs.defaultFS, as Hadoop's FileSystem.makeQualified gives them to a path.
type origin struct {
	scheme string
	host   string // empty: none (file:///)
	port   int32  // -1: none, as java.net.URI.getPort says
}

func newOrigin(fsURI *url.URL) (origin, error) {
	o := origin{scheme: fsURI.Scheme, host: fsURI.Hostname(), port: -1}
	// java.net.URI.getHost keeps an IPv6 literal's brackets, and
	// URL.toPath hands the host back to that constructor.
	if strings.Contains(o.host, ":") {
		o.host = "[" + o.host + "]"
	}
	if p := fsURI.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil {
			return origin{}, fmt.Errorf("staging: fs.defaultFS %s: port %q is not a port number", fsURI, p)
		}
		o.port = int32(n)
	}
	return o, nil
}

// resourceURL is YARN's URL.fromPath for the absolute path p on this file
// system. Port is always set: Java reads an absent one as 0, not -1.
func (o origin) resourceURL(p string) *hadoopyarn.URLProto {
	u := &hadoopyarn.URLProto{
		Scheme: proto.String(o.scheme),
		Port:   proto.Int32(o.port),
		File:   proto.String(p),
	}
	if o.host != "" {
		u.Host = proto.String(o.host)
	}
	return u
}

// String is the URL as Hadoop would print the qualified path, for errors.
func (o origin) String() string {
	s := o.scheme + "://" + o.host
	if o.port >= 0 {
		s += ":" + strconv.Itoa(int(o.port))
	}
	return s
}
