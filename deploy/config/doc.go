// Package config is Spindle's configuration: properties files in Spark's
// spark-defaults.conf form, --conf KEY=VALUE overrides, and one registry of
// every key Spindle knows (keys.go) with its default, kind and meaning.
//
// # Sources and precedence
//
// Load reads the properties files in order, then the --conf overrides, then
// the command-line flags that stand for keys (--master for spindle.master);
// a later source wins over an earlier one, and a key set nowhere takes its
// default from the registry. Within one properties file a key given twice
// keeps its last value, as java.util.Properties does. Within the --conf
// list the last KEY=VALUE for a key wins, as in spark-submit.
//
// A few defaults follow another key rather than a constant (Spark's
// fallbackConf): spindle.dynamicAllocation.sustainedSchedulerBacklogTimeout
// follows spindle.dynamicAllocation.schedulerBacklogTimeout, and
// spindle.dynamicAllocation.initialExecutors follows minExecutors. One
// follows a part of another: Spark's local[N,F] master sets
// spindle.task.maxFailures to F unless a source sets it.
//
// # Keys and Spark aliases
//
// Keys are spindle.*. The same suffix under spark.* is an alias of the
// spindle.* key, so a spark-defaults.conf carries over: spark.executor.memory
// sets spindle.executor.memory. Across sources the spelling does not matter
// (a later source wins whichever spelling either used). Within one source
// both spellings of the same key must agree: spindle.task.cpus=2 and
// spark.task.cpus=4 in the same file is an error naming both lines, because
// nothing says which one the author meant.
//
// Strictness, which is where Spindle departs from Spark:
//
//   - an unknown spindle.* key is an error naming file:line, with a
//     did-you-mean for near misses (edit distance, or a difference of case
//     only; keys are case-sensitive);
//   - a spark.* key Spindle does not know is not an error, since users bring
//     whole Spark files: it is collected (IgnoredSparkKeys) so the command
//     line can print one warning listing them;
//   - a key of any other prefix is an error (Spark warns and ignores it);
//   - every value is parsed by its key's kind when it is loaded, including
//     values a later source overrides, so a bad value anywhere stops the
//     start instead of failing later when some part reads it.
//
// # Properties files
//
// Files are read as java.util.Properties reads them for Spark (details in
// properties.go): key and value separated by blanks, '=' or ':'; '#' and '!'
// comment lines; a trailing backslash continues a line; backslash escapes
// including \uXXXX; values trimmed. Where Java is lenient (bytes that are
// not UTF-8, half of a surrogate pair) or fails without saying where (a
// malformed \uXXXX), Spindle stops with file:line. A leading byte order mark
// is skipped.
//
// # Values
//
// Durations are a whole number with an optional unit: us, ms, s, m or min,
// h, d (Spark's timeStringAs); a bare number is in the key's own unit,
// seconds or milliseconds as in Spark (seconds for the dynamicAllocation
// timeouts, milliseconds for spindle.locality.wait). Negative durations are
// errors. Sizes are a whole number with an optional unit: b, k/kb, m/mb,
// g/gb, t/tb, p/pb (binary multiples, Spark's byteStringAs); a bare number is
// MiB, as for Spark's executor memory. Spark truncates a size that is not a
// whole number of MiB; Spindle rejects it. Booleans are true or false in any
// case; enums match their allowed values in any case.
//
// Every error names the key, the value and where it came from: file:line,
// --conf, or default; a flag's names the flag and the value as typed
// (--master lcal).
package config
