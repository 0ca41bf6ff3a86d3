package analytics

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var (
	uuidPattern   = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	sentAtPattern = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
)

func track(i int) Track {
	return Track{Event: "Tested", UserId: fmt.Sprintf("u-%d", i)}
}

func TestSendsAFullBatchOfTwentyWithoutWaitingForTheTimer(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newTestClient(rec)
	for i := 0; i < 45; i++ {
		if err := c.Track(track(i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 2; i++ {
		if got := len(rec.next().Batch); got != 20 {
			t.Fatalf("batch %d has %d messages, want 20", i, got)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if got := len(rec.next().Batch); got != 5 {
		t.Fatalf("Close sent %d messages, want the 5 left", got)
	}
	if rec.count() != 3 {
		t.Fatalf("%d requests, want 3", rec.count())
	}
}

func TestFlushAfterSendsAPartialBatch(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newTestClient(rec)
	c.FlushAfter = 20 * time.Millisecond
	for i := 0; i < 3; i++ {
		if err := c.Track(track(i)); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(rec.next().Batch); got != 3 {
		t.Fatalf("timer flush sent %d messages, want 3", got)
	}
	if err := c.Track(track(3)); err != nil {
		t.Fatal(err)
	}
	if got := len(rec.next().Batch); got != 1 {
		t.Fatalf("second timer flush sent %d messages, want 1", got)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestSizeOrFlushAtOneSendsEveryMessageAtOnce(t *testing.T) {
	for _, set := range []func(*Client){
		func(c *Client) { c.Size = 1 },
		func(c *Client) { c.FlushAt = 1 },
	} {
		rec := newRecorder(t, nil)
		c := newTestClient(rec)
		set(c)
		for i := 0; i < 3; i++ {
			if err := c.Track(track(i)); err != nil {
				t.Fatal(err)
			}
			r := rec.next() // arrives before Close, with the timer an hour away
			if len(r.Batch) != 1 || r.Batch[0]["userId"] != fmt.Sprintf("u-%d", i) {
				t.Fatalf("request %d: %s", i, r.Body)
			}
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if rec.count() != 3 {
			t.Fatalf("%d requests, want 3", rec.count())
		}
	}
}

func TestSizeAndFlushAtResolveToOneFlushSize(t *testing.T) {
	cases := []struct{ size, flushAt, want int }{
		{20, 20, 20},
		{1, 20, 1},
		{20, 1, 1},
		{50, 20, 50},
		{20, 50, 50},
		{50, 10, 10},
		{0, 0, 20},
		{-3, 7, 7},
	}
	for _, tc := range cases {
		if got := flushSize(tc.size, tc.flushAt); got != tc.want {
			t.Errorf("flushSize(Size=%d, FlushAt=%d) = %d, want %d", tc.size, tc.flushAt, got, tc.want)
		}
	}
}

func TestRequestCarriesBasicAuthJSONAndLibraryHeaders(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newTestClient(rec)
	if err := c.Identify(Identify{UserId: "u-1"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	r := rec.next()
	if r.Method != http.MethodPost || r.Path != "/v1/batch" {
		t.Fatalf("%s %s, want POST /v1/batch", r.Method, r.Path)
	}
	req, _ := http.NewRequest("GET", "/", nil)
	req.Header = r.Header
	user, pass, ok := req.BasicAuth()
	if !ok || user != "wk_test" || pass != "" {
		t.Fatalf("basic auth = %q %q %v, want the write key and an empty password", user, pass, ok)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}
	if ua := r.Header.Get("User-Agent"); ua != "switchyard-go/"+Version {
		t.Fatalf("User-Agent %q", ua)
	}
	if keys := sortedKeys(r.Envelope); !reflect.DeepEqual(keys, []string{"batch", "sentAt"}) {
		t.Fatalf("envelope keys %v", keys)
	}
	if !sentAtPattern.MatchString(r.Envelope["sentAt"].(string)) {
		t.Fatalf("sentAt %q is not RFC 3339 UTC with milliseconds", r.Envelope["sentAt"])
	}
	if strings.Contains(string(r.Body), "wk_test") {
		t.Fatal("the write key must travel only in the Authorization header")
	}
}

func TestEndpointSetAfterNewIsUsedAndTrailingSlashIgnored(t *testing.T) {
	rec := newRecorder(t, nil)
	c := New("k")
	c.Endpoint = rec.srv.URL + "/"
	c.Logger = &bufLogger{}
	if err := c.Track(track(1)); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if p := rec.next().Path; p != "/v1/batch" {
		t.Fatalf("path %q", p)
	}
}

func TestBodyShapePerCallType(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newTestClient(rec)
	integrations := map[string]interface{}{"All": false, "Webhooks": true}
	calls := []struct {
		call func() error
		want map[string]interface{} // every key but messageId and context
	}{
		{func() error {
			return c.Identify(Identify{UserId: "u", Traits: map[string]interface{}{"plan": "pro"}, Timestamp: "2015-01-02T03:04:05-0700"})
		}, map[string]interface{}{"type": "identify", "userId": "u", "traits": map[string]interface{}{"plan": "pro"}, "timestamp": "2015-01-02T03:04:05-0700"}},
		{func() error {
			return c.Track(Track{Event: "Order Completed", AnonymousId: "a", Properties: map[string]interface{}{"revenue": 42.5}, Integrations: integrations})
		}, map[string]interface{}{"type": "track", "anonymousId": "a", "event": "Order Completed", "properties": map[string]interface{}{"revenue": 42.5}, "integrations": integrations}},
		{func() error {
			return c.Page(Page{UserId: "u", AnonymousId: "a", Name: "Home", Category: "Docs",
				Traits: map[string]interface{}{"url": "https://x.test/", "title": "T"}, Properties: map[string]interface{}{"title": "Over", "path": "/"}})
		}, map[string]interface{}{"type": "page", "userId": "u", "anonymousId": "a", "name": "Home", "category": "Docs",
			"properties": map[string]interface{}{"url": "https://x.test/", "title": "Over", "path": "/"}}},
		{func() error {
			return c.Screen(Screen{UserId: "u", Name: "Dashboard", Properties: map[string]interface{}{"tab": "2"}})
		}, map[string]interface{}{"type": "screen", "userId": "u", "name": "Dashboard", "properties": map[string]interface{}{"tab": "2"}}},
		{func() error {
			return c.Group(Group{UserId: "u", GroupId: "g-1", Traits: map[string]interface{}{"name": "Acme"}, Timestamp: "2015-01-02T03:04:05.123Z"})
		}, map[string]interface{}{"type": "group", "userId": "u", "groupId": "g-1", "traits": map[string]interface{}{"name": "Acme"}, "timestamp": "2015-01-02T03:04:05.123Z"}},
		{func() error {
			return c.Alias(Alias{UserId: "new", PreviousId: "old", MessageId: "m-1"})
		}, map[string]interface{}{"type": "alias", "userId": "new", "previousId": "old"}},
	}
	for _, call := range calls {
		if err := call.call(); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	batch := rec.next().Batch
	if len(batch) != len(calls) {
		t.Fatalf("%d messages, want %d", len(batch), len(calls))
	}
	for i, msg := range batch {
		id, _ := msg["messageId"].(string)
		if msg["type"] == "alias" {
			if id != "m-1" {
				t.Errorf("alias messageId %q, want the caller's m-1", id)
			}
		} else if !uuidPattern.MatchString(id) {
			t.Errorf("%s messageId %q is not a UUID", msg["type"], id)
		}
		ctx, _ := msg["context"].(map[string]interface{})
		lib, _ := ctx["library"].(map[string]interface{})
		if lib["name"] != "switchyard-go" || lib["version"] != Version {
			t.Errorf("%s context.library = %v", msg["type"], ctx["library"])
		}
		got := map[string]interface{}{}
		for k, v := range msg {
			if k != "messageId" && k != "context" {
				got[k] = v
			}
		}
		if !reflect.DeepEqual(got, calls[i].want) {
			t.Errorf("message %d:\n got %v\nwant %v", i, got, calls[i].want)
		}
	}
}

func TestContextIsCopiedAndCallerMapsMayBeReused(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newTestClient(rec)
	ctx := map[string]interface{}{"ip": "10.0.0.1"}
	props := map[string]interface{}{"n": 1}
	if err := c.Track(Track{Event: "E", UserId: "u", Context: ctx, Properties: props}); err != nil {
		t.Fatal(err)
	}
	props["n"] = 2 // after the call: must not change what is sent
	if _, ok := ctx["library"]; ok {
		t.Fatal("the caller's context map was modified")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	msg := rec.next().Batch[0]
	if msg["properties"].(map[string]interface{})["n"] != float64(1) {
		t.Fatalf("properties %v", msg["properties"])
	}
	if msg["context"].(map[string]interface{})["ip"] != "10.0.0.1" {
		t.Fatalf("context %v", msg["context"])
	}
}

func TestValidationErrorsAreReturnedAndNothingIsQueued(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newTestClient(rec)
	cases := []struct {
		name  string
		call  func() error
		field string
	}{
		{"identify without user", func() error { return c.Identify(Identify{Traits: map[string]interface{}{"a": 1}}) }, "UserId"},
		{"track without event", func() error { return c.Track(Track{UserId: "u"}) }, "Event"},
		{"track without user", func() error { return c.Track(Track{Event: "E"}) }, "UserId"},
		{"page without userId", func() error { return c.Page(Page{AnonymousId: "a"}) }, "UserId"},
		{"screen without user", func() error { return c.Screen(Screen{Name: "S"}) }, "UserId"},
		{"group without groupId", func() error { return c.Group(Group{UserId: "u"}) }, "GroupId"},
		{"group without user", func() error { return c.Group(Group{GroupId: "g"}) }, "UserId"},
		{"alias without userId", func() error { return c.Alias(Alias{PreviousId: "p"}) }, "UserId"},
		{"alias without previousId", func() error { return c.Alias(Alias{UserId: "u"}) }, "PreviousId"},
		{"unparseable timestamp", func() error { return c.Track(Track{Event: "E", UserId: "u", Timestamp: "yesterday"}) }, "Timestamp"},
		{"timestamp without offset", func() error { return c.Track(Track{Event: "E", UserId: "u", Timestamp: "2015-01-02T03:04:05"}) }, "Timestamp"},
		{"integration value not bool", func() error {
			return c.Track(Track{Event: "E", UserId: "u", Integrations: map[string]interface{}{"All": "false"}})
		}, "Integrations"},
		{"not JSON-encodable", func() error {
			return c.Track(Track{Event: "E", UserId: "u", Properties: map[string]interface{}{"f": func() {}}})
		}, ""},
	}
	for _, tc := range cases {
		err := tc.call()
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: error %v, want a *ValidationError", tc.name, err)
			continue
		}
		if ve.Field != tc.field {
			t.Errorf("%s: Field %q, want %q (%v)", tc.name, ve.Field, tc.field, err)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 0 {
		t.Fatalf("%d requests for invalid calls", rec.count())
	}
}

func TestAcceptedTimestampForms(t *testing.T) {
	for _, ts := range []string{
		"2015-01-02T03:04:05Z",
		"2015-01-02T03:04:05.123Z",
		"2015-01-02T03:04:05.123456+02:00",
		"2015-01-02T03:04:05-07:00",
		"2015-01-02T03:04:05-0700",
		"2015-01-02T03:04:05.000+0530",
	} {
		if _, ok := parseTimestamp(ts); !ok {
			t.Errorf("%q rejected", ts)
		}
	}
	for _, ts := range []string{"", "2015-01-02", "2015-01-02 03:04:05Z", "2015-13-02T03:04:05Z", "1420193045"} {
		if _, ok := parseTimestamp(ts); ok {
			t.Errorf("%q accepted", ts)
		}
	}
}

func TestMessageOver32KBIsRejectedAndNeverSent(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newTestClient(rec)
	big := strings.Repeat("x", MaxMessageBytes)
	err := c.Track(Track{Event: "E", UserId: "u", Properties: map[string]interface{}{"blob": big}})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("error %v, want ErrTooLarge", err)
	}
	// Just under the limit is fine.
	fits := strings.Repeat("x", MaxMessageBytes-400)
	if err := c.Track(Track{Event: "E", UserId: "u", Properties: map[string]interface{}{"blob": fits}}); err != nil {
		t.Fatalf("a %d-byte property was refused: %v", len(fits), err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if got := len(rec.next().Batch); got != 1 || rec.count() != 1 {
		t.Fatalf("%d requests, last with %d messages; want 1 request with only the message that fits", rec.count(), got)
	}
}

func TestBatchesAreSplitToStayUnder500KB(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newTestClient(rec)
	blob := strings.Repeat("y", 30000)
	for i := 0; i < 20; i++ { // 20 x ~30 KB = ~600 KB: over one request's limit
		if err := c.Track(Track{Event: "E", UserId: fmt.Sprint(i), Properties: map[string]interface{}{"blob": blob}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, r := range rec.snapshot() {
		if len(r.Body) > MaxBatchBytes {
			t.Errorf("request body %d bytes, over %d", len(r.Body), MaxBatchBytes)
		}
		total += len(r.Batch)
	}
	if rec.count() < 2 || total != 20 {
		t.Fatalf("%d requests carrying %d messages; want at least 2 carrying all 20", rec.count(), total)
	}
}

func TestRetriesA503ThenSucceedsWithTheSameMessages(t *testing.T) {
	rec := newRecorder(t, func(n int, w http.ResponseWriter, r request) {
		if n <= 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, `{"success":true}`)
	})
	c := newTestClient(rec)
	var failures atomic.Int32
	var delivered []string
	var mu sync.Mutex
	c.OnError = func(*DeliveryError) { failures.Add(1) }
	c.OnSuccess = func(ids []string) { mu.Lock(); delivered = append(delivered, ids...); mu.Unlock() }
	if err := c.Track(Track{Event: "E", UserId: "u", MessageId: "m-1"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	all := rec.snapshot()
	if len(all) != 3 {
		t.Fatalf("%d attempts, want 3", len(all))
	}
	for _, r := range all {
		if r.Batch[0]["messageId"] != "m-1" {
			t.Fatalf("retry changed the message: %s", r.Body)
		}
	}
	if failures.Load() != 0 || !reflect.DeepEqual(delivered, []string{"m-1"}) {
		t.Fatalf("failures %d, delivered %v", failures.Load(), delivered)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestRetriesA429AndNetworkErrorsUntilAttemptsRunOut(t *testing.T) {
	rec := newRecorder(t, func(n int, w http.ResponseWriter, r request) {
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	c := newTestClient(rec)
	c.MaxAttempts = 3
	errs := make(chan *DeliveryError, 1)
	c.OnError = func(e *DeliveryError) { errs <- e }
	if err := c.Track(track(1)); err != nil {
		t.Fatal(err)
	}
	err := c.Close()
	var de *DeliveryError
	if !errors.As(err, &de) || de.StatusCode != 429 || de.Attempts != 3 || de.Permanent {
		t.Fatalf("Close returned %#v", err)
	}
	if got := <-errs; got != de {
		t.Fatal("OnError and Close disagree")
	}
	if rec.count() != 3 {
		t.Fatalf("%d attempts, want 3", rec.count())
	}

	// Nothing listening: transport errors are retried the same way.
	down := newRecorder(t, nil)
	url := down.srv.URL
	down.srv.Close()
	c = New("k")
	c.Endpoint = url
	c.MaxAttempts = 2
	c.RetryDelay = time.Millisecond
	log := &bufLogger{}
	c.Logger = log
	if err := c.Track(track(1)); err != nil {
		t.Fatal(err)
	}
	err = c.Close()
	if !errors.As(err, &de) || de.StatusCode != 0 || de.Err == nil || de.Attempts != 2 {
		t.Fatalf("Close returned %#v", err)
	}
	if !log.contains("not delivered after 2 attempt(s)") {
		t.Fatalf("failure not logged: %q", log.String())
	}
}

func TestDoesNotRetryA400AndReportsTheServersReasons(t *testing.T) {
	rec := newRecorder(t, func(n int, w http.ResponseWriter, r request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"success":false,"error":"invalid_message","message":"1 message is invalid","errors":[{"field":"context.__proto__","reason":"prototype key"},{"index":1,"field":"userId","reason":"must be a string"}]}`)
	})
	c := newTestClient(rec)
	errs := make(chan *DeliveryError, 1)
	c.OnError = func(e *DeliveryError) { errs <- e }
	_ = c.Track(Track{Event: "E", UserId: "u", MessageId: "m-0"})
	_ = c.Track(Track{Event: "E", UserId: "u", MessageId: "m-1"})
	if err := c.Flush(); err == nil {
		t.Fatal("Flush returned nil for a refused batch")
	}
	de := <-errs
	want := []FieldError{
		{Index: -1, Field: "context.__proto__", Reason: "prototype key"},
		{Index: 1, MessageId: "m-1", Field: "userId", Reason: "must be a string"},
	}
	if de.StatusCode != 400 || !de.Permanent || de.Attempts != 1 || de.Code != "invalid_message" ||
		de.Message != "1 message is invalid" || !reflect.DeepEqual(de.Errors, want) ||
		!reflect.DeepEqual(de.MessageIds, []string{"m-0", "m-1"}) {
		t.Fatalf("DeliveryError %+v", de)
	}
	if !strings.Contains(de.Error(), "[1] userId: must be a string") {
		t.Fatalf("Error() = %q", de.Error())
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 1 {
		t.Fatalf("%d attempts, want 1", rec.count())
	}
}

func TestConcurrentCallersEveryMessageArrivesExactlyOnce(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newTestClient(rec)
	c.FlushAfter = 5 * time.Millisecond
	const goroutines, calls = 50, 200
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < calls; i++ {
				if err := c.Track(Track{Event: "E", UserId: "u", MessageId: fmt.Sprintf("%d-%d", g, i)}); err != nil {
					t.Error(err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range rec.snapshot() {
		if len(r.Batch) > DefaultFlushSize {
			t.Errorf("batch of %d", len(r.Batch))
		}
		for _, m := range r.Batch {
			seen[m["messageId"].(string)]++
		}
	}
	if len(seen) != goroutines*calls {
		t.Fatalf("%d distinct messages arrived, want %d", len(seen), goroutines*calls)
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("%s arrived %d times", id, n)
		}
	}
}

func TestFullQueueReturnsErrQueueFullUntilMessagesAreDelivered(t *testing.T) {
	release := make(chan struct{})
	rec := newRecorder(t, func(n int, w http.ResponseWriter, r request) {
		<-release
		fmt.Fprint(w, `{"success":true}`)
	})
	c := newTestClient(rec)
	c.MaxQueueSize = 5
	c.MaxConcurrentRequests = 1
	c.Size = 1
	accepted := 0
	var err error
	for i := 0; i < 6; i++ {
		if err = c.Track(track(i)); err != nil {
			break
		}
		accepted++
	}
	if !errors.Is(err, ErrQueueFull) || accepted != 5 {
		t.Fatalf("accepted %d then %v; want 5 then ErrQueueFull", accepted, err)
	}
	close(release)
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := c.Track(track(99)); err != nil {
		t.Fatalf("after delivery: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, r := range rec.snapshot() {
		total += len(r.Batch)
	}
	if total != 6 {
		t.Fatalf("%d messages delivered, want 6", total)
	}
}

func TestCloseDrainsTheQueueThenRefusesCalls(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newTestClient(rec)
	for i := 0; i < 7; i++ {
		if err := c.Track(track(i)); err != nil {
			t.Fatal(err)
		}
	}
	if rec.count() != 0 {
		t.Fatal("sent before the flush size or timer was reached")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 1 || len(rec.snapshot()[0].Batch) != 7 {
		t.Fatalf("Close did not send the 7 queued messages in one batch")
	}
	if err := c.Identify(Identify{UserId: "u"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after Close: %v", err)
	}
	if err := c.Flush(); !errors.Is(err, ErrClosed) {
		t.Fatalf("Flush after Close: %v", err)
	}
	if err := c.Close(); !errors.Is(err, ErrClosed) {
		t.Fatalf("second Close: %v", err)
	}
}

func TestCloseWaitsForABatchThatIsBeingRetried(t *testing.T) {
	rec := newRecorder(t, func(n int, w http.ResponseWriter, r request) {
		if n == 1 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		fmt.Fprint(w, `{"success":true}`)
	})
	c := newTestClient(rec)
	c.Size = 1
	if err := c.Track(track(1)); err != nil {
		t.Fatal(err)
	}
	rec.next() // the first attempt failed; the batch is now in flight
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if rec.count() != 2 {
		t.Fatalf("%d attempts, want 2", rec.count())
	}
}

func TestCloseWithoutCallsSendsNothing(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newTestClient(rec)
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 0 {
		t.Fatalf("%d requests for an empty queue", rec.count())
	}
}

func TestDebugEnvironmentVariableEnablesLogging(t *testing.T) {
	for _, tc := range []struct {
		debug string
		want  bool
	}{{"analytics", true}, {"", false}, {"other", false}, {"app,analytics", true}, {"*", true}} {
		t.Run(fmt.Sprintf("DEBUG=%q", tc.debug), func(t *testing.T) {
			t.Setenv("DEBUG", tc.debug)
			rec := newRecorder(t, nil)
			c := newTestClient(rec)
			log := c.Logger.(*bufLogger)
			if err := c.Track(track(1)); err != nil {
				t.Fatal(err)
			}
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			got := log.contains("analytics: queued track") && log.contains("analytics: POST ") && log.contains("accepted")
			if got != tc.want {
				t.Fatalf("debug lines present = %v, want %v; log:\n%s", got, tc.want, log)
			}
			if !tc.want && log.String() != "" {
				t.Fatalf("unexpected log output: %q", log)
			}
		})
	}
}

func TestClassifyResponses(t *testing.T) {
	netErr := errors.New("connection refused")
	cases := []struct {
		status int
		err    error
		want   outcome
	}{
		{200, nil, accepted},
		{204, nil, accepted},
		{400, nil, permanent},
		{401, nil, permanent},
		{403, nil, permanent},
		{404, nil, permanent},
		{408, nil, retry},
		{413, nil, permanent},
		{429, nil, retry},
		{500, nil, retry},
		{502, nil, retry},
		{503, nil, retry},
		{504, nil, retry},
		{302, nil, permanent},
		{0, netErr, retry},
		{0, &permanentError{netErr}, permanent},
	}
	for _, tc := range cases {
		if got := classify(tc.status, tc.err); got != tc.want {
			t.Errorf("classify(%d, %v) = %v, want %v", tc.status, tc.err, got, tc.want)
		}
	}
}

func TestNextDelayGrowsWithJitterAndHonoursRetryAfterWithinBounds(t *testing.T) {
	base, max := 500*time.Millisecond, 60*time.Second
	cases := []struct {
		attempt    int
		retryAfter time.Duration
		random     float64
		want       time.Duration
	}{
		{1, 0, 0, 250 * time.Millisecond},
		{1, 0, 0.999999, 499999750 * time.Nanosecond},
		{2, 0, 0, 500 * time.Millisecond},
		{3, 0, 0.5, 1500 * time.Millisecond},
		{9, 0, 0, 30 * time.Second},  // capped at max before jitter
		{40, 0, 1, 60 * time.Second}, // no overflow
		{1, 7 * time.Second, 0.5, 7 * time.Second},
		{1, time.Hour, 0.5, 60 * time.Second},
	}
	for _, tc := range cases {
		if got := nextDelay(tc.attempt, base, max, tc.retryAfter, tc.random); got != tc.want {
			t.Errorf("nextDelay(%d, retryAfter %s, random %v) = %s, want %s", tc.attempt, tc.retryAfter, tc.random, got, tc.want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := map[string]time.Duration{
		"":                              0,
		"3":                             3 * time.Second,
		"0":                             0,
		"-1":                            0,
		"soon":                          0,
		"Mon, 01 Jan 2024 00:00:10 GMT": 10 * time.Second,
		"Sun, 31 Dec 2023 23:00:00 GMT": 0,
	}
	for in, want := range cases {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestMalformedEndpointIsReportedWithoutRetrying(t *testing.T) {
	c := New("k")
	c.Endpoint = "http://bad host"
	c.Logger = &bufLogger{}
	c.RetryDelay = time.Hour // a retry would hang the test
	if err := c.Track(track(1)); err != nil {
		t.Fatal(err)
	}
	var de *DeliveryError
	if err := c.Close(); !errors.As(err, &de) || !de.Permanent || de.Attempts != 1 {
		t.Fatalf("Close returned %#v", err)
	}
}

func sortedKeys(m map[string]interface{}) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
