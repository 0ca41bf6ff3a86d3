// Command go-segment-v1 sends one call of each kind through the unmodified
// Segment Go library version 1.2.0 (github.com/segmentio/analytics-go v1.2.0,
// the line with FlushAt, FlushAfter and DEBUG=analytics) to a Switchyard
// ingest server, then closes the client. Version 1 posts to /v1/import, not
// /v1/batch. It prints one line per call and exits non-zero if a call was
// refused or a message was not accepted with a 2xx.
//
//	go run . -endpoint http://localhost:8080 -write-key KEY -user-prefix run-1
//
// The library reports HTTP failures only through its debug log, so this
// program watches the exchanges itself by wrapping http.DefaultTransport,
// which the library's requests go through.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	analytics "github.com/segmentio/analytics-go"
)

// watcher counts the messages of each request and how they were answered.
type watcher struct {
	next      http.RoundTripper
	mu        sync.Mutex
	delivered int
	failed    int
}

func (w *watcher) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	var envelope struct {
		Batch []json.RawMessage `json:"batch"`
	}
	_ = json.Unmarshal(body, &envelope)
	n := len(envelope.Batch)

	res, err := w.next.RoundTrip(req)
	status := 0
	if res != nil {
		status = res.StatusCode
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err == nil && status >= 200 && status < 300 {
		w.delivered += n
	} else {
		w.failed += n
		fmt.Printf("FAILED delivery of %d message(s) to %s: HTTP %d %v\n", n, req.URL.Path, status, err)
	}
	return res, err
}

func main() {
	endpoint := flag.String("endpoint", "http://localhost:8080", "ingest server base URL")
	writeKey := flag.String("write-key", "", "write key of the source (required)")
	prefix := flag.String("user-prefix", "", "prefix of the user ids sent (required)")
	flushAt := flag.Int("flush-at", 20, "client.FlushAt: messages per batch (1 sends each call at once)")
	flag.Parse()
	if *writeKey == "" || *prefix == "" {
		fmt.Fprintln(os.Stderr, "usage: go-segment-v1 -endpoint URL -write-key KEY -user-prefix PREFIX")
		os.Exit(2)
	}

	w := &watcher{next: http.DefaultTransport}
	http.DefaultTransport = w

	client := analytics.New(*writeKey)
	client.Endpoint = *endpoint
	client.FlushAt = *flushAt
	client.FlushAfter = 5 * time.Second

	user := *prefix + "-user"
	calls := []struct {
		name string
		call func() error
	}{
		{"identify", func() error {
			return client.Identify(analytics.Message{
				"userId":    user,
				"traits":    map[string]interface{}{"name": "Ada", "plan": "pro"},
				"timestamp": "2015-01-02T03:04:05-0700",
			})
		}},
		{"track", func() error {
			return client.Track(analytics.Message{
				"userId":       user,
				"event":        "Order Completed",
				"properties":   map[string]interface{}{"revenue": 42.5},
				"integrations": map[string]interface{}{"All": false, "Webhooks": true},
			})
		}},
		{"page", func() error {
			return client.Page(analytics.Message{
				"userId": user,
				"name":   "Home",
				"properties": map[string]interface{}{
					"url":      "https://example.com/",
					"title":    "Home",
					"path":     "/",
					"referrer": "https://example.org/",
				},
			})
		}},
		{"group", func() error {
			return client.Group(analytics.Message{
				"userId":  user,
				"groupId": "g-1",
				"traits":  map[string]interface{}{"name": "Acme"},
			})
		}},
		{"alias", func() error {
			return client.Alias(analytics.Message{
				"previousId": *prefix + "-anon",
				"userId":     user,
			})
		}},
		{"screen", func() error {
			return client.Screen(analytics.Message{
				"userId": user,
				"name":   "Dashboard",
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
		fmt.Printf("%s: queued userId=%s\n", c.name, user)
	}
	// Close flushes and waits for every request (v1.2.0 returns nothing).
	client.Close()

	w.mu.Lock()
	fmt.Printf("delivered %d of %d messages\n", w.delivered, len(calls))
	if w.failed > 0 || w.delivered != len(calls) {
		failed = true
	}
	w.mu.Unlock()
	if failed {
		os.Exit(1)
	}
}
