package executor

import (
	"fmt"
	"strings"
	"unicode"
)

// maxAddressLen bounds one address: a GPU UUID or MIG UUID is well under
// it, and anything longer is garbage that would only bloat error messages
// and environment variables.
const maxAddressLen = 256

// checkAddresses rejects lists that would be ambiguous once joined into
// CUDA_VISIBLE_DEVICES: empty entries, duplicates, and entries holding a
// comma, white space or control characters. source names where the list
// came from, so the error tells the operator what to fix.
func checkAddresses(source string, addrs []string) error {
	seen := make(map[string]int, len(addrs))
	for i, a := range addrs {
		switch {
		case a == "":
			return fmt.Errorf("%s: address %d is empty", source, i)
		case len(a) > maxAddressLen:
			return fmt.Errorf("%s: address %d is longer than %d bytes", source, i, maxAddressLen)
		case strings.IndexFunc(a, badAddressRune) >= 0:
			return fmt.Errorf("%s: address %q holds a comma, space or control character", source, a)
		}
		if j, dup := seen[a]; dup {
			return fmt.Errorf("%s: address %q is listed twice (positions %d and %d)", source, a, j, i)
		}
		seen[a] = i
	}
	return nil
}

func badAddressRune(r rune) bool {
	return r == ',' || unicode.IsSpace(r) || unicode.IsControl(r) || r == unicode.ReplacementChar
}

// splitAddressList parses a comma-separated list such as "0,1" or
// "GPU-8f2e…,GPU-11aa…". Spaces around entries are forgiven because people
// type "0, 1"; an empty string is an empty list. The result is checked.
func splitAddressList(source, list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	addrs := strings.Split(list, ",")
	for i := range addrs {
		addrs[i] = strings.TrimSpace(addrs[i])
	}
	if err := checkAddresses(source, addrs); err != nil {
		return nil, err
	}
	return addrs, nil
}
