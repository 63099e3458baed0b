// Package localfs lists the local filesystem's files for a stage's input
// (splits.Lister): file:// URIs and absolute paths, walked by
// splits.ListFS over os.DirFS("/"): path.Match's globs in any element, **
// for any number of directories and Hadoop's {a,b} alternatives. Its files
// have no block locations: a local file is cut into blocks of BlockSize
// with no preferred hosts.
package localfs
