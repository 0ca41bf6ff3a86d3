package analytics

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// request is one POST a test server received.
type request struct {
	Method   string
	Path     string
	Header   http.Header
	Body     []byte
	Envelope map[string]interface{}
	Batch    []map[string]interface{}
}

// recorder is an ingest stand-in: it records every request and answers with
// respond (200 {"success":true} when nil).
type recorder struct {
	t        *testing.T
	srv      *httptest.Server
	requests chan request
	respond  func(n int, w http.ResponseWriter, r request)

	mu  sync.Mutex
	all []request
}

func newRecorder(t *testing.T, respond func(n int, w http.ResponseWriter, r request)) *recorder {
	t.Helper()
	rec := &recorder{t: t, requests: make(chan request, 10000), respond: respond}
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req := request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
		if err := json.Unmarshal(body, &req.Envelope); err != nil {
			t.Errorf("request body is not JSON: %v", err)
		}
		if raw, ok := req.Envelope["batch"].([]interface{}); ok {
			for _, m := range raw {
				req.Batch = append(req.Batch, m.(map[string]interface{}))
			}
		}
		rec.mu.Lock()
		rec.all = append(rec.all, req)
		n := len(rec.all)
		rec.mu.Unlock()
		if rec.respond != nil {
			rec.respond(n, w, req)
		} else {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"success":true}`)
		}
		rec.requests <- req
	}))
	t.Cleanup(rec.srv.Close)
	return rec
}

// next waits for the next request, failing the test after a generous bound.
func (rec *recorder) next() request {
	rec.t.Helper()
	select {
	case r := <-rec.requests:
		return r
	case <-time.After(10 * time.Second):
		rec.t.Fatal("timed out waiting for a request")
		return request{}
	}
}

func (rec *recorder) count() int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return len(rec.all)
}

func (rec *recorder) snapshot() []request {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]request(nil), rec.all...)
}

// newTestClient returns a client pointed at rec, with fast retries and a
// timer that never fires on its own unless a test asks for one.
func newTestClient(rec *recorder) *Client {
	c := New("wk_test")
	c.Endpoint = rec.srv.URL
	c.FlushAfter = time.Hour
	c.RetryDelay = time.Millisecond
	c.MaxRetryDelay = 5 * time.Millisecond
	c.Logger = &bufLogger{}
	return c
}

// bufLogger collects log lines for assertions.
type bufLogger struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *bufLogger) Printf(format string, args ...interface{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(&l.buf, format, args...)
	l.buf.WriteByte('\n')
}

func (l *bufLogger) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *bufLogger) contains(s string) bool { return strings.Contains(l.String(), s) }
