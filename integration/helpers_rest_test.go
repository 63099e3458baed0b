package integration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Helpers: reading the ResourceManager's REST API as every supported
// Hadoop writes it.

// oneOrMany decodes a list from the RM's REST API as every Hadoop writes
// it: Hadoop 3.5 (Jersey 2) writes a one-element list as a JSON array,
// Hadoop 3.3 and 3.4 (Jersey 1's JAXB JSON) as the element alone.
type oneOrMany[T any] []T

func (l *oneOrMany[T]) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '[' {
		return json.Unmarshal(b, (*[]T)(l))
	}
	var one T
	if err := json.Unmarshal(b, &one); err != nil {
		return err
	}
	*l = oneOrMany[T]{one}
	return nil
}

// flexInt decodes a number from the RM's REST API as every Hadoop writes
// it: Jersey 1 (Hadoop 3.3, 3.4) writes a JAXB map's values as strings.
type flexInt int

func (n *flexInt) UnmarshalJSON(b []byte) error {
	if s, err := strconv.Unquote(string(b)); err == nil {
		b = []byte(s)
	}
	v, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	if err != nil {
		return fmt.Errorf("not a number: %s", b)
	}
	*n = flexInt(v)
	return nil
}
