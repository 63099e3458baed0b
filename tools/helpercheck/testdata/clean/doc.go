// Package clean keeps its test helpers in their place.
package clean
