package hadoopconf

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// siteFiles are the files Load reads from each configuration directory, in
// this order: later files override earlier ones.
var siteFiles = []string{"core-site.xml", "hdfs-site.xml", "yarn-site.xml"}

// maxIncludeDepth bounds xi:include nesting; Hadoop has no bound and
// overflows its stack on a cycle.
const maxIncludeDepth = 16

// FromEnvironment loads the client configuration the environment points
// at, the way Hadoop's scripts find it: HADOOP_CONF_DIR, else
// $HADOOP_HOME/etc/hadoop; then YARN_CONF_DIR when set and different, whose
// files override. lookupEnv (os.LookupEnv in production) is also the
// environment of ${env.NAME} substitution, and SystemProperties(lookupEnv)
// its system properties.
func FromEnvironment(lookupEnv func(string) (string, bool)) (*Conf, error) {
	get := func(name string) string {
		v, _ := lookupEnv(name)
		return v
	}
	type confDir struct{ path, from string }
	var dirs []confDir
	if d := get("HADOOP_CONF_DIR"); d != "" {
		dirs = append(dirs, confDir{d, "HADOOP_CONF_DIR"})
	} else if h := get("HADOOP_HOME"); h != "" {
		dirs = append(dirs, confDir{filepath.Join(h, "etc", "hadoop"), "HADOOP_HOME"})
	}
	if d := get("YARN_CONF_DIR"); d != "" && (len(dirs) == 0 || filepath.Clean(d) != filepath.Clean(dirs[0].path)) {
		dirs = append(dirs, confDir{d, "YARN_CONF_DIR"})
	}
	if len(dirs) == 0 {
		return nil, errors.New("hadoopconf: none of HADOOP_CONF_DIR, YARN_CONF_DIR or HADOOP_HOME is set; " +
			"set HADOOP_CONF_DIR to the directory holding core-site.xml and yarn-site.xml")
	}
	c := New(Env{Lookup: lookupEnv, System: SystemProperties(lookupEnv)})
	for _, d := range dirs {
		if err := c.addDir(d.path); err != nil {
			return nil, fmt.Errorf("%w (from %s)", err, d.from)
		}
	}
	return c, nil
}

// Load merges core-site.xml, hdfs-site.xml and yarn-site.xml of each
// directory, in that order, directories in the order given, into a new
// Conf. A missing site file is skipped; a missing directory is an error.
func Load(env Env, dirs ...string) (*Conf, error) {
	c := New(env)
	for _, d := range dirs {
		if err := c.addDir(d); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *Conf) addDir(dir string) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("hadoopconf: configuration directory %s does not exist", dir)
	}
	if err != nil {
		return fmt.Errorf("hadoopconf: configuration directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("hadoopconf: configuration directory %s is not a directory", dir)
	}
	for _, name := range siteFiles {
		path := filepath.Join(dir, name)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := c.AddFile(path); err != nil {
			return err
		}
	}
	return nil
}

// AddFile parses the site file at path and merges it into c (see Add).
func (c *Conf) AddFile(path string) error {
	r, err := parseFile(path)
	if err != nil {
		return err
	}
	return c.Add(r)
}

// Add merges r into c: its properties in order over what c holds, with
// Hadoop's final rule, and each xi:include's file in its place. An href
// is a path, absolute or relative to r's directory, or a file: URL; a
// missing target loads the include's fallback, or without one is an error.
// On error c may hold part of r.
func (c *Conf) Add(r *Resource) error {
	c.resources = append(c.resources, r.Name)
	return c.addItems(r.Items, []string{filepath.Clean(r.Name)})
}

// addItems merges items of the last resource of chain, the includes that
// led to it.
func (c *Conf) addItems(items []Item, chain []string) error {
	from := chain[len(chain)-1]
	for _, it := range items {
		switch it := it.(type) {
		case *Property:
			c.merge(it)
		case *Include:
			path, err := includePath(from, it.Href)
			if err != nil {
				return &ParseError{it.Pos, err.Error()}
			}
			if slices.Contains(chain, path) {
				return &ParseError{it.Pos, "include cycle: " + strings.Join(append(chain, path), " includes ")}
			}
			if len(chain) > maxIncludeDepth {
				return &ParseError{it.Pos, fmt.Sprintf("includes nested more than %d deep", maxIncludeDepth)}
			}
			r, err := parseFile(path)
			if errors.Is(err, fs.ErrNotExist) {
				if !it.HasFallback {
					return &ParseError{it.Pos, fmt.Sprintf("included %s does not exist, and the include has no fallback", path)}
				}
				if err := c.addItems(it.Fallback, chain); err != nil {
					return err
				}
				continue
			}
			if err != nil {
				return err
			}
			c.resources = append(c.resources, path)
			if err := c.addItems(r.Items, append(chain, path)); err != nil {
				return err
			}
		}
	}
	return nil
}

// includePath resolves an href against the directory of the including
// resource, as Hadoop does for a file.
func includePath(from, href string) (string, error) {
	if strings.Contains(href, "://") || strings.HasPrefix(href, "file:") {
		u, err := url.Parse(href)
		if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") {
			return "", fmt.Errorf("include href %q: only local files can be included", href)
		}
		// file:/abs and file:///abs have a Path; file:rel is opaque.
		if href = u.Path; href == "" {
			href = u.Opaque
		}
		if href == "" {
			return "", fmt.Errorf("include href %q names no file", u.String())
		}
	}
	if !filepath.IsAbs(href) {
		href = filepath.Join(filepath.Dir(from), href)
	}
	return filepath.Clean(href), nil
}

func parseFile(path string) (*Resource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("hadoopconf: %w", err)
	}
	defer f.Close()
	return Parse(f, path)
}
