// Package srccheck is what the source checks of make lint (funclen,
// puritycheck, helpercheck) share: their command line (-root DIR and
// PATHs), the walk over a tree's Go files, and how findings are printed
// and end the process (0 with none, 1 with some, 2 when a check could not
// be made).
package srccheck
