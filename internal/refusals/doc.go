// Package refusals logs the connections a listener refused at most once
// an interval. Anyone who can connect can make refusals, thousands a
// second, and a line for each would fill the disk through the process's
// log: the first refusal after a quiet interval is logged at once, with
// its details, for the user whose client is misconfigured; the ones that
// follow within the interval are counted, and logged as one line with
// the count and the latest once it has passed.
package refusals
