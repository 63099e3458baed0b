package config

// Origin says, for people, where key's value came from: "default",
// "default: follows KEY", a properties file and line, "--conf" or a flag
// ("--master"), with " as spark.x" when it was set under its Spark
// alias. A process that read its settings from a file Spindle wrote
// (LoadVerbatim) says where each value came from in the process that
// wrote it, carried in the file: the submitter's --conf, not the
// settings file's line.
func (c *Config) Origin(key string) string {
	if from, ok := c.from[key]; ok {
		return from
	}
	s := c.Setting(key)
	switch {
	case s.DefaultFrom != "":
		return "default: follows " + s.DefaultFrom
	case s.SetAs != "" && s.SetAs != s.Key:
		return s.Source.String() + " as " + s.SetAs
	}
	return s.Source.String()
}
