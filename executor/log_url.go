package executor

import "net/url"

// containerLogsURL is the NodeManager's web page of a YARN container's
// logs (NMWebServices' /node/containerlogs/<container>/<user>, a file
// under it by name), from the variables the NodeManager gives the
// container: where the UI links a task's stdout and stderr while the
// application runs (after, `yarn logs` has them). "" outside a
// container.
func containerLogsURL(env func(string) (string, bool)) string {
	host, _ := env("NM_HOST")
	port, _ := env("NM_HTTP_PORT")
	container, _ := env("CONTAINER_ID")
	user, _ := env("USER")
	if host == "" || port == "" || container == "" || user == "" {
		return ""
	}
	u := url.URL{Scheme: "http", Host: host + ":" + port, Path: "/node/containerlogs/" + container + "/" + user}
	return u.String()
}
