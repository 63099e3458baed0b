package main

import (
	"slices"
	"strconv"
)

func itoa(n int) string { return strconv.Itoa(n) }

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }
