// Command go-segment-v2 sends identify, track, page, group and alias through
// the unmodified Segment Go library version 2 (github.com/segmentio/analytics-go
// v2.0.0, the deprecated line the spec describes) to a Switchyard ingest
// server, then closes the client. It prints one line per call and exits
// non-zero if a call was refused or a message was not accepted with a 2xx.
//
//	go run . -endpoint http://localhost:8080 -write-key KEY -user-prefix run-1
//
// Version 2 has no screen call, no integrations field and no way to set a
// timestamp (it stamps every message itself, as 2006-01-02T15:04:05-0700 in
// local time), so those parts of the conformance script are absent here.
//
// The library reports failures only by logging, so this program watches the
// HTTP exchanges itself: it wraps http.DefaultTransport, which the library's
// requests go through. It also waits for every message to be answered before
// calling Close, because v2's Close can drop messages still in its channel.
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
	next http.RoundTripper

	mu        sync.Mutex
	delivered int
	failed    int
	answered  chan struct{} // signalled after each exchange
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
	switch {
	case n == 0:
		// v2's Close always posts its buffer, even when empty ("batch":null).
		fmt.Printf("close: empty batch to %s answered HTTP %d (ignored)\n", req.URL.Path, status)
	case err == nil && status >= 200 && status < 300:
		w.delivered += n
	default:
		w.failed += n
		fmt.Printf("FAILED delivery of %d message(s) to %s: HTTP %d %v\n", n, req.URL.Path, status, err)
	}
	w.mu.Unlock()
	select {
	case w.answered <- struct{}{}:
	default:
	}
	return res, err
}

func (w *watcher) counts() (int, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.delivered, w.failed
}

func main() {
	endpoint := flag.String("endpoint", "http://localhost:8080", "ingest server base URL")
	writeKey := flag.String("write-key", "", "write key of the source (required)")
	prefix := flag.String("user-prefix", "", "prefix of the user ids sent (required)")
	size := flag.Int("size", 1, "client.Size: messages per batch (1 sends each call at once)")
	interval := flag.Duration("interval", 200*time.Millisecond, "client.Interval: flush interval")
	wait := flag.Duration("wait", 30*time.Second, "how long to wait for every message to be answered")
	flag.Parse()
	if *writeKey == "" || *prefix == "" {
		fmt.Fprintln(os.Stderr, "usage: go-segment-v2 -endpoint URL -write-key KEY -user-prefix PREFIX")
		os.Exit(2)
	}

	w := &watcher{next: http.DefaultTransport, answered: make(chan struct{}, 1)}
	http.DefaultTransport = w

	client := analytics.New(*writeKey)
	client.Endpoint = *endpoint
	client.Size = *size
	client.Interval = *interval
	client.Verbose = true

	user := *prefix + "-user"
	calls := []struct {
		name string
		call func() error
	}{
		{"identify", func() error {
			return client.Identify(&analytics.Identify{
				UserId: user,
				Traits: map[string]interface{}{"name": "Ada", "plan": "pro"},
			})
		}},
		{"track", func() error {
			return client.Track(&analytics.Track{
				UserId:     user,
				Event:      "Order Completed",
				Properties: map[string]interface{}{"revenue": 42.5},
			})
		}},
		{"page", func() error {
			return client.Page(&analytics.Page{
				UserId: user,
				Name:   "Home",
				Traits: map[string]interface{}{
					"url":      "https://example.com/",
					"title":    "Home",
					"path":     "/",
					"referrer": "https://example.org/",
				},
			})
		}},
		{"group", func() error {
			return client.Group(&analytics.Group{
				UserId:  user,
				GroupId: "g-1",
				Traits:  map[string]interface{}{"name": "Acme"},
			})
		}},
		{"alias", func() error {
			return client.Alias(&analytics.Alias{
				PreviousId: *prefix + "-anon",
				UserId:     user,
			})
		}},
	}

	failed := false
	queued := 0
	for _, c := range calls {
		if err := c.call(); err != nil {
			fmt.Printf("%s: FAILED: %v\n", c.name, err)
			failed = true
			continue
		}
		queued++
		fmt.Printf("%s: queued userId=%s\n", c.name, user)
	}

	deadline := time.After(*wait)
waiting:
	for {
		if d, f := w.counts(); d+f >= queued {
			break
		}
		select {
		case <-w.answered:
		case <-deadline:
			fmt.Printf("timed out after %s waiting for answers\n", *wait)
			break waiting
		}
	}
	if err := client.Close(); err != nil {
		fmt.Printf("close: FAILED: %v\n", err)
		failed = true
	}
	d, f := w.counts()
	fmt.Printf("delivered %d of %d messages\n", d, len(calls))
	if f > 0 || d != len(calls) {
		failed = true
	}
	if failed {
		os.Exit(1)
	}
}
