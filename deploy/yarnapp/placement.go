package yarnapp

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// PlacementHandlerKey is the RM's setting that decides whether it places
// SchedulingRequests at all, and with what.
const PlacementHandlerKey = "yarn.resourcemanager.placement-constraints.handler"

// checkPlacement refuses, before anything is submitted, placement
// constraints the cluster's RM cannot place: with the handler disabled
// (YARN's default) it rejects every SchedulingRequest, and the job would
// only wait. The handler is read from the RM itself (its web app's /conf),
// since the client's yarn-site.xml may not say; only when the RM cannot
// be asked does the client's own value, or YARN's default, stand in.
// Each profile's executors are placed as am.ProfilePlacement says: the
// application's placement app, or their stages' own, with their node
// label (else label) as its partition; role names a profile's executors
// in the error.
func checkPlacement(ctx context.Context, app yarn.Placement, label string, profiles []scheduler.Profile, role func(scheduler.Profile) string,
	hconf *hadoopconf.Conf, log logrus.FieldLogger) error {
	type asked struct {
		place yarn.Placement
		keys  string
	}
	var constrained []asked
	for _, pr := range append([]scheduler.Profile{{}}, profiles...) { // the zero profile: the application's own
		place := am.ProfilePlacement(app, label, pr)
		if !place.Constrained() {
			continue
		}
		keys := settings.PlacementKeys
		if pr.Placement.Set() {
			keys = fmt.Sprintf("the placement %s of the %s", pr.Placement, role(pr))
		}
		constrained = append(constrained, asked{place, keys})
	}
	if len(constrained) == 0 {
		return nil
	}
	handler, err := rmConfValue(ctx, hconf, PlacementHandlerKey)
	if err != nil {
		handler = hconf.GetDefault(PlacementHandlerKey, yarn.HandlerDisabled)
		log.WithError(err).WithField("handler", handler).Warn("could not read the ResourceManager's placement-constraints handler from its web app; going by the client's configuration")
	}
	for _, a := range constrained {
		if err := a.place.SupportedBy(strings.TrimSpace(handler), a.keys); err != nil {
			return err
		}
	}
	return nil
}

// Bounds on reading the RM's configuration: its /conf page is a few
// hundred KiB.
const (
	maxConfPage = 16 << 20
	confTimeout = 10 * time.Second
)

// rmConfValue reads key from the configuration the RM runs with, as its
// web app serves it at /conf, trying each RM under HA. A key the RM does
// not list has YARN's default: "" comes back.
func rmConfValue(ctx context.Context, hconf *hadoopconf.Conf, key string) (string, error) {
	scheme, service := "http", hadoopconf.RMWebappAddress
	if strings.EqualFold(strings.TrimSpace(hconf.GetDefault("yarn.http.policy", "HTTP_ONLY")), "HTTPS_ONLY") {
		scheme, service = "https", hadoopconf.RMWebappHTTPSAddress
	}
	eps, err := hconf.RMAddresses(service)
	if err != nil {
		return "", err
	}
	var errs []error
	for _, ep := range eps {
		v, err := confPageValue(ctx, scheme+"://"+ep.Address+"/conf", key)
		if err == nil {
			return v, nil
		}
		errs = append(errs, err)
	}
	return "", errors.Join(errs...)
}

func confPageValue(ctx context.Context, url, key string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, confTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Accept", "application/xml")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", url, resp.Status)
	}
	v, err := ConfValue(io.LimitReader(resp.Body, maxConfPage), key)
	if err != nil {
		return "", fmt.Errorf("%s: %w", url, err)
	}
	return v, nil
}

// ConfValue finds key's value in a Hadoop configuration document
// (<configuration><property><name/><value/>...), as /conf serves it: ""
// when it is not there.
func ConfValue(r io.Reader, key string) (string, error) {
	d := xml.NewDecoder(r)
	sawConfiguration := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if !sawConfiguration {
				return "", fmt.Errorf("not a Hadoop configuration document (no <configuration>)")
			}
			return "", nil
		}
		if err != nil {
			return "", fmt.Errorf("reading the configuration: %w", err)
		}
		start, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch start.Name.Local {
		case "configuration":
			sawConfiguration = true
		case "property":
			var p struct {
				Name  string `xml:"name"`
				Value string `xml:"value"`
			}
			if err := d.DecodeElement(&p, &start); err != nil {
				return "", fmt.Errorf("reading the configuration: %w", err)
			}
			if strings.TrimSpace(p.Name) == key {
				return p.Value, nil
			}
		}
	}
}
