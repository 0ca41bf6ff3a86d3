// Command go-segment sends one call of each kind through the unmodified
// Segment Go library (github.com/segmentio/analytics-go/v3) to a Switchyard
// ingest server, then closes the client. It prints one line per call and
// exits non-zero if any call was refused or any message was reported failed
// (or not reported delivered) by the library's callback.
//
//	go run . -endpoint http://localhost:8080 -write-key KEY -user-prefix run-1
package main

import (
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/segmentio/analytics-go/v3"
)

// callback counts what the library reports for each message.
type callback struct {
	mu        sync.Mutex
	delivered int
	failed    int
}

func (c *callback) Success(analytics.Message) {
	c.mu.Lock()
	c.delivered++
	c.mu.Unlock()
}

func (c *callback) Failure(m analytics.Message, err error) {
	c.mu.Lock()
	c.failed++
	c.mu.Unlock()
	fmt.Printf("FAILED delivery of %T: %v\n", m, err)
}

func main() {
	endpoint := flag.String("endpoint", "http://localhost:8080", "ingest server base URL")
	writeKey := flag.String("write-key", "", "write key of the source (required)")
	prefix := flag.String("user-prefix", "", "prefix of the user ids sent (required)")
	batchSize := flag.Int("batch-size", 0, "messages per batch; 0 keeps the library default (250)")
	flag.Parse()
	if *writeKey == "" || *prefix == "" {
		fmt.Fprintln(os.Stderr, "usage: go-segment -endpoint URL -write-key KEY -user-prefix PREFIX")
		os.Exit(2)
	}

	cb := &callback{}
	client, err := analytics.NewWithConfig(*writeKey, analytics.Config{
		Endpoint:  *endpoint,
		BatchSize: *batchSize,
		Verbose:   true,
		Callback:  cb,
		// Keep a failing run short: 10 attempts, at most 1 s apart.
		RetryAfter: func(attempt int) time.Duration {
			return time.Duration(100*(attempt+1)) * time.Millisecond
		},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}

	user := *prefix + "-user"
	historical, err := time.Parse("2006-01-02T15:04:05-0700", "2015-01-02T03:04:05-0700")
	if err != nil {
		panic(err)
	}
	calls := []struct {
		name string
		msg  analytics.Message
	}{
		{"identify", analytics.Identify{
			UserId:    user,
			Traits:    analytics.Traits{"name": "Ada", "plan": "pro"},
			Timestamp: historical,
		}},
		{"track", analytics.Track{
			UserId:     user,
			Event:      "Order Completed",
			Properties: analytics.Properties{"revenue": 42.5},
			// Written out: the library's DisableAll() would send "all", lower case.
			Integrations: analytics.Integrations{"All": false, "Webhooks": true},
		}},
		{"page", analytics.Page{
			UserId: user,
			Name:   "Home",
			Properties: analytics.Properties{
				"url":      "https://example.com/",
				"title":    "Home",
				"path":     "/",
				"referrer": "https://example.org/",
			},
		}},
		{"group", analytics.Group{
			UserId:  user,
			GroupId: "g-1",
			Traits:  analytics.Traits{"name": "Acme"},
		}},
		{"alias", analytics.Alias{
			PreviousId: *prefix + "-anon",
			UserId:     user,
		}},
		{"screen", analytics.Screen{
			UserId: user,
			Name:   "Dashboard",
		}},
	}

	failed := false
	for _, c := range calls {
		if err := client.Enqueue(c.msg); err != nil {
			fmt.Printf("%s: FAILED: %v\n", c.name, err)
			failed = true
			continue
		}
		fmt.Printf("%s: queued userId=%s\n", c.name, user)
	}
	if err := client.Close(); err != nil {
		fmt.Printf("close: FAILED: %v\n", err)
		failed = true
	}
	cb.mu.Lock()
	fmt.Printf("delivered %d of %d messages\n", cb.delivered, len(calls))
	if cb.failed > 0 || cb.delivered != len(calls) {
		failed = true
	}
	cb.mu.Unlock()
	if failed {
		os.Exit(1)
	}
}
