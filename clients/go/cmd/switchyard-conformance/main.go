// Command switchyard-conformance sends one call of each kind through the
// Switchyard Go client to an ingest server, then closes the client. It prints
// one line per call and exits non-zero if any call was refused or any batch
// was not delivered. The project's conformance tests run it.
//
//	go run ./cmd/switchyard-conformance -endpoint http://localhost:8080 -write-key KEY -user-prefix run-1
package main

import (
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	analytics "github.com/switchyard-dev/switchyard/clients/go"
)

func main() {
	endpoint := flag.String("endpoint", "http://localhost:8080", "ingest server base URL")
	writeKey := flag.String("write-key", "", "write key of the source (required)")
	prefix := flag.String("user-prefix", "", "prefix of the user ids sent (required)")
	size := flag.Int("size", 20, "flush size (Size / FlushAt); 1 sends each call at once")
	attempts := flag.Int("max-attempts", 3, "requests per batch before giving up")
	flag.Parse()
	if *writeKey == "" || *prefix == "" {
		fmt.Fprintln(os.Stderr, "usage: switchyard-conformance -endpoint URL -write-key KEY -user-prefix PREFIX")
		os.Exit(2)
	}

	client := analytics.New(*writeKey)
	client.Endpoint = *endpoint
	client.Size = *size
	client.MaxAttempts = *attempts
	client.RetryDelay = 200 * time.Millisecond
	client.MaxRetryDelay = 2 * time.Second

	var mu sync.Mutex
	delivered := 0
	client.OnSuccess = func(ids []string) {
		mu.Lock()
		defer mu.Unlock()
		delivered += len(ids)
	}
	client.OnError = func(err *analytics.DeliveryError) {
		fmt.Printf("FAILED delivery: %v\n", err)
	}

	user := *prefix + "-user"
	calls := []struct {
		name string
		call func() error
	}{
		{"identify", func() error {
			return client.Identify(analytics.Identify{
				UserId:    user,
				Traits:    map[string]interface{}{"name": "Ada", "plan": "pro"},
				Timestamp: "2015-01-02T03:04:05-0700",
				MessageId: *prefix + "-identify",
			})
		}},
		{"track", func() error {
			return client.Track(analytics.Track{
				UserId:       user,
				Event:        "Order Completed",
				Properties:   map[string]interface{}{"revenue": 42.5},
				Integrations: map[string]interface{}{"All": false, "Webhooks": true},
				MessageId:    *prefix + "-track",
			})
		}},
		{"page", func() error {
			return client.Page(analytics.Page{
				UserId: user,
				Name:   "Home",
				Traits: map[string]interface{}{
					"url":      "https://example.com/",
					"title":    "Home",
					"path":     "/",
					"referrer": "https://example.org/",
				},
				MessageId: *prefix + "-page",
			})
		}},
		{"group", func() error {
			return client.Group(analytics.Group{
				UserId:    user,
				GroupId:   "g-1",
				Traits:    map[string]interface{}{"name": "Acme"},
				MessageId: *prefix + "-group",
			})
		}},
		{"alias", func() error {
			return client.Alias(analytics.Alias{
				PreviousId: *prefix + "-anon",
				UserId:     user,
				MessageId:  *prefix + "-alias",
			})
		}},
		{"screen", func() error {
			return client.Screen(analytics.Screen{
				UserId:    user,
				Name:      "Dashboard",
				MessageId: *prefix + "-screen",
			})
		}},
	}

	failed := false
	for _, c := range calls {
		if err := c.call(); err != nil {
			fmt.Printf("%s: FAILED: %v\n", c.name, err)
			failed = true
			continue
		}
		fmt.Printf("%s: queued messageId=%s-%s userId=%s\n", c.name, *prefix, c.name, user)
	}
	if err := client.Close(); err != nil {
		fmt.Printf("close: FAILED: %v\n", err)
		failed = true
	}
	mu.Lock()
	fmt.Printf("delivered %d of %d messages\n", delivered, len(calls))
	if delivered != len(calls) {
		failed = true
	}
	mu.Unlock()
	if failed {
		os.Exit(1)
	}
}
