// Package analytics is Switchyard's Go client. It records identify, track,
// page, screen, group and alias calls and sends them in batches, in the
// background, to a Switchyard ingest server (or any server that speaks
// Segment's HTTP Tracking API).
//
// A call validates its record, serialises it and puts it on an in-memory
// queue; it never makes an HTTP request itself. A background goroutine sends
// the queue to <Endpoint>/v1/batch when it holds the flush size (Size /
// FlushAt, default 20) or when FlushAfter (default 5 s) has passed since the
// last flush. Failed batches are retried with exponential backoff.
//
// A Client is safe for concurrent use by any number of goroutines. Set its
// exported fields after New and before the first call: the first call reads
// them once; later changes have no effect.
//
// Timestamps are strings in ISO 8601 form with an offset: RFC 3339
// ("2006-01-02T15:04:05Z", "2006-01-02T15:04:05.000+07:00", any fraction
// precision) or the offset without a colon that Segment's older libraries
// send ("2006-01-02T15:04:05-0700"). An empty Timestamp lets the server stamp
// the time it received the call.
//
// Setting the environment variable DEBUG to "analytics" (or a comma- or
// space-separated list containing "analytics", "analytics*" or "*") turns on
// runtime logging.
package analytics

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	mrand "math/rand/v2"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// Version of this library, sent in context.library.version.
const Version = "0.1.0"

// LibraryName is sent in context.library.name of every message.
const LibraryName = "switchyard-go"

// Defaults and limits.
const (
	DefaultEndpoint              = "http://localhost:8080"
	DefaultFlushSize             = 20
	DefaultFlushAfter            = 5 * time.Second
	DefaultMaxQueueSize          = 10000
	DefaultMaxAttempts           = 10
	DefaultRetryDelay            = 500 * time.Millisecond
	DefaultMaxRetryDelay         = 60 * time.Second
	DefaultMaxConcurrentRequests = 4
	DefaultRequestTimeout        = 10 * time.Second

	// MaxMessageBytes is the largest serialised message a call accepts (32 KB).
	MaxMessageBytes = 32000
	// MaxBatchBytes is the largest request body the client sends (500 KB).
	MaxBatchBytes = 500000
)

// Logger receives the client's log lines. *log.Logger satisfies it.
type Logger interface {
	Printf(format string, args ...interface{})
}

// Client queues messages and sends them in batches. Create it with New.
type Client struct {
	// Endpoint is the base URL of the ingest server; batches are POSTed to
	// Endpoint + "/v1/batch". Default "http://localhost:8080".
	Endpoint string

	// Size and FlushAt are two names for one setting: the number of queued
	// messages that triggers a flush (default 20; 1 sends every message at
	// once). Set either. If both are set to different non-default values the
	// smaller wins. Zero or negative means the default.
	Size    int
	FlushAt int

	// FlushAfter sends whatever is queued when this much time has passed since
	// the last flush. Default 5 s. Zero or negative means the default.
	FlushAfter time.Duration

	// Client sends the requests. Default: an http.Client with a 10 s timeout.
	Client *http.Client

	// Logger receives delivery failures (always) and debug lines (when DEBUG
	// enables them, or Verbose is true), possibly from several goroutines at
	// once. Default: the standard library's log package (stderr).
	Logger Logger

	// Verbose turns debug logging on as DEBUG=analytics does.
	Verbose bool

	// OnError is called once for every batch that was not delivered, after
	// its last attempt; its messages are then dropped. OnSuccess is called
	// with the messageIds of every accepted batch. Both run on the client's
	// sending goroutines, possibly concurrently: return quickly.
	OnError   func(*DeliveryError)
	OnSuccess func(messageIds []string)

	// MaxQueueSize bounds the messages held (queued or being sent). A call
	// made when it is reached returns ErrQueueFull. Default 10,000.
	MaxQueueSize int

	// MaxAttempts bounds the requests made for one batch (default 10).
	// RetryDelay is the first backoff (default 500 ms), doubled per attempt
	// up to MaxRetryDelay (default 60 s), with jitter; a Retry-After header is
	// honoured up to MaxRetryDelay. With the defaults a batch is given up
	// 1.5 to 3 minutes after its first attempt. 1 turns retries off.
	MaxAttempts   int
	RetryDelay    time.Duration
	MaxRetryDelay time.Duration

	// MaxConcurrentRequests bounds the batches in flight (default 4). Order
	// across batches is therefore not guaranteed; each message carries its
	// own messageId (and timestamp when given).
	MaxConcurrentRequests int

	writeKey  string
	startOnce sync.Once
	cfg       config

	mu       sync.Mutex
	pending  []queued            // accepted, not yet in a batch
	held     int                 // pending + messages of batches in flight
	inflight map[*batch]struct{} // batches being sent or retried
	closed   bool

	kick     chan struct{}      // queue reached the flush size
	flushReq chan chan []*batch // Flush asks the loop to dispatch everything
	quit     chan struct{}      // Close stops the loop
	loopDone chan struct{}
	sem      chan struct{} // one token per batch in flight
	senders  sync.WaitGroup
}

// config is the settings snapshot taken on the first call.
type config struct {
	url           string
	flushSize     int
	flushAfter    time.Duration
	http          *http.Client
	logger        Logger
	debug         bool
	onError       func(*DeliveryError)
	onSuccess     func([]string)
	maxQueue      int
	maxAttempts   int
	retryDelay    time.Duration
	maxRetryDelay time.Duration
	concurrency   int
}

type queued struct {
	id   string
	data []byte
}

type batch struct {
	msgs []queued
	done chan struct{}
	err  *DeliveryError // set before done is closed
}

// New returns a client for the source with the given write key. It starts no
// goroutine: that happens on the first call, after the fields are set.
func New(writeKey string) *Client {
	return &Client{
		writeKey:   writeKey,
		Endpoint:   DefaultEndpoint,
		Size:       DefaultFlushSize,
		FlushAt:    DefaultFlushSize,
		FlushAfter: DefaultFlushAfter,
	}
}

// flushSize resolves the Size / FlushAt aliases: the smallest positive value
// that differs from the default, else the default.
func flushSize(size, flushAt int) int {
	n := 0
	for _, v := range []int{size, flushAt} {
		if v > 0 && v != DefaultFlushSize && (n == 0 || v < n) {
			n = v
		}
	}
	if n == 0 {
		return DefaultFlushSize
	}
	return n
}

// debugEnabled reads a DEBUG value the way the debug packages do.
func debugEnabled(value string) bool {
	for _, name := range strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' }) {
		if name == "analytics" || name == "analytics*" || name == "*" {
			return true
		}
	}
	return false
}

func orInt(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func orDuration(v, def time.Duration) time.Duration {
	if v > 0 {
		return v
	}
	return def
}

// start snapshots the settings and starts the loop, once.
func (c *Client) start() {
	c.startOnce.Do(func() {
		c.cfg = config{
			url:           strings.TrimRight(c.Endpoint, "/") + "/v1/batch",
			flushSize:     flushSize(c.Size, c.FlushAt),
			flushAfter:    orDuration(c.FlushAfter, DefaultFlushAfter),
			http:          c.Client,
			logger:        c.Logger,
			debug:         c.Verbose || debugEnabled(os.Getenv("DEBUG")),
			onError:       c.OnError,
			onSuccess:     c.OnSuccess,
			maxQueue:      orInt(c.MaxQueueSize, DefaultMaxQueueSize),
			maxAttempts:   orInt(c.MaxAttempts, DefaultMaxAttempts),
			retryDelay:    orDuration(c.RetryDelay, DefaultRetryDelay),
			maxRetryDelay: orDuration(c.MaxRetryDelay, DefaultMaxRetryDelay),
			concurrency:   orInt(c.MaxConcurrentRequests, DefaultMaxConcurrentRequests),
		}
		if c.Endpoint == "" {
			c.cfg.url = DefaultEndpoint + "/v1/batch"
		}
		if c.cfg.http == nil {
			c.cfg.http = &http.Client{Timeout: DefaultRequestTimeout}
		}
		if c.cfg.logger == nil {
			c.cfg.logger = log.Default()
		}
		if c.cfg.maxRetryDelay < c.cfg.retryDelay {
			c.cfg.maxRetryDelay = c.cfg.retryDelay
		}
		c.inflight = make(map[*batch]struct{})
		c.kick = make(chan struct{}, 1)
		c.flushReq = make(chan chan []*batch)
		c.quit = make(chan struct{})
		c.loopDone = make(chan struct{})
		c.sem = make(chan struct{}, c.cfg.concurrency)
		c.debugf("started: endpoint %s, flush at %d messages or every %s", c.cfg.url, c.cfg.flushSize, c.cfg.flushAfter)
		go c.loop()
	})
}

// Identify queues an identify message. It returns a *ValidationError, an
// error wrapping ErrTooLarge, ErrQueueFull or ErrClosed when the message was
// not queued, and nil when it was.
func (c *Client) Identify(msg Identify) error { return c.enqueue(msg.toWire(newMessageID)) }

// Track queues a track message. Return values as for Identify.
func (c *Client) Track(msg Track) error { return c.enqueue(msg.toWire(newMessageID)) }

// Page queues a page message. Return values as for Identify.
func (c *Client) Page(msg Page) error { return c.enqueue(msg.toWire(newMessageID)) }

// Screen queues a screen message. Return values as for Identify.
func (c *Client) Screen(msg Screen) error { return c.enqueue(msg.toWire(newMessageID)) }

// Group queues a group message. Return values as for Identify.
func (c *Client) Group(msg Group) error { return c.enqueue(msg.toWire(newMessageID)) }

// Alias queues an alias message. Return values as for Identify.
func (c *Client) Alias(msg Alias) error { return c.enqueue(msg.toWire(newMessageID)) }

func (c *Client) enqueue(w *wireMessage, err error) error {
	if err != nil {
		return err
	}
	// Serialising now freezes the caller's maps: they may be reused at once.
	data, err := encode(w)
	if err != nil {
		return err
	}
	c.start()
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return ErrClosed
	}
	if c.held >= c.cfg.maxQueue {
		c.mu.Unlock()
		return ErrQueueFull
	}
	c.pending = append(c.pending, queued{id: w.MessageID, data: data})
	c.held++
	n := len(c.pending)
	c.mu.Unlock()
	if n >= c.cfg.flushSize {
		select {
		case c.kick <- struct{}{}:
		default: // a kick is already waiting
		}
	}
	c.debugf("queued %s %s (%d waiting)", w.Type, w.MessageID, n)
	return nil
}

// Flush sends every queued message now and waits until each batch in flight
// has been accepted or given up (retries included). It returns nil when all of
// them were accepted, otherwise their *DeliveryError values joined (they are
// also passed to OnError). After Close it returns ErrClosed.
func (c *Client) Flush() error {
	c.start()
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return ErrClosed
	}
	return c.flushAndWait()
}

// Close flushes like Flush, waits for every batch in flight, stops the
// background goroutine, and makes later calls return ErrClosed. It returns
// what Flush would; a second Close returns ErrClosed.
func (c *Client) Close() error {
	c.start()
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return ErrClosed
	}
	c.closed = true
	c.mu.Unlock()
	err := c.flushAndWait()
	close(c.quit)
	<-c.loopDone
	c.senders.Wait()
	c.debugf("closed")
	return err
}

func (c *Client) flushAndWait() error {
	reply := make(chan []*batch, 1)
	var batches []*batch
	select {
	case c.flushReq <- reply:
		batches = <-reply
	case <-c.loopDone:
	}
	var errs []error
	for _, b := range batches {
		<-b.done
		if b.err != nil {
			errs = append(errs, b.err)
		}
	}
	return errors.Join(errs...)
}

// loop turns the queue into batches: when it holds the flush size, when
// FlushAfter has passed since the last flush, and when Flush or Close ask.
func (c *Client) loop() {
	defer close(c.loopDone)
	timer := time.NewTimer(c.cfg.flushAfter)
	defer timer.Stop()
	resetTimer := func() {
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(c.cfg.flushAfter)
	}
	for {
		select {
		case <-c.kick:
			if len(c.dispatch(false)) > 0 {
				resetTimer()
			}
		case <-timer.C:
			c.dispatch(true)
			timer.Reset(c.cfg.flushAfter)
		case reply := <-c.flushReq:
			// Only this goroutine starts batches, so the batches in flight
			// now plus those dispatched next are all that Flush must await.
			c.mu.Lock()
			batches := make([]*batch, 0, len(c.inflight))
			for b := range c.inflight {
				batches = append(batches, b)
			}
			c.mu.Unlock()
			reply <- append(batches, c.dispatch(true)...)
			resetTimer()
		case <-c.quit:
			return
		}
	}
}

// dispatch hands queued messages to senders: all of them, or only full
// batches. It works on the messages present when it starts, so a steady
// stream of calls cannot keep the loop from Flush, Close or the timer.
// It returns the batches started.
func (c *Client) dispatch(all bool) []*batch {
	c.mu.Lock()
	budget := len(c.pending)
	if !all {
		budget -= budget % c.cfg.flushSize
	}
	c.mu.Unlock()
	var started []*batch
	for budget > 0 {
		c.sem <- struct{}{} // wait for a free sender
		c.mu.Lock()
		b := c.takeBatch(budget)
		if b != nil {
			c.inflight[b] = struct{}{}
			budget -= len(b.msgs)
		}
		c.mu.Unlock()
		if b == nil {
			<-c.sem
			break
		}
		started = append(started, b)
		c.senders.Add(1)
		go func() {
			defer c.senders.Done()
			defer func() { <-c.sem }()
			c.deliver(b)
		}()
	}
	c.mu.Lock()
	more := len(c.pending) >= c.cfg.flushSize
	c.mu.Unlock()
	if more {
		select {
		case c.kick <- struct{}{}:
		default:
		}
	}
	return started
}

// batchOverhead is the body around the messages: {"batch":[],"sentAt":"…"}.
var batchOverhead = len(`{"batch":[],"sentAt":"2006-01-02T15:04:05.000Z"}`)

// takeBatch removes up to flushSize (and at most limit) messages from the
// front of the queue, as many as fit in MaxBatchBytes. Caller holds c.mu.
func (c *Client) takeBatch(limit int) *batch {
	if len(c.pending) == 0 {
		return nil
	}
	size := batchOverhead
	n := 0
	for n < len(c.pending) && n < c.cfg.flushSize && n < limit {
		add := len(c.pending[n].data)
		if n > 0 {
			add++ // comma
		}
		if n > 0 && size+add > MaxBatchBytes {
			break
		}
		size += add
		n++
	}
	b := &batch{msgs: make([]queued, n), done: make(chan struct{})}
	copy(b.msgs, c.pending[:n])
	c.pending = append(c.pending[:0], c.pending[n:]...)
	return b
}

// body builds the request body; sentAt is stamped per attempt.
func (b *batch) body(now time.Time) []byte {
	var buf bytes.Buffer
	buf.WriteString(`{"batch":[`)
	for i, m := range b.msgs {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(m.data)
	}
	buf.WriteString(`],"sentAt":"`)
	buf.WriteString(now.UTC().Format("2006-01-02T15:04:05.000Z"))
	buf.WriteString(`"}`)
	return buf.Bytes()
}

func (b *batch) ids() []string {
	ids := make([]string, len(b.msgs))
	for i, m := range b.msgs {
		ids[i] = m.id
	}
	return ids
}

// ingestAnswer is the JSON body of an ingest API response.
type ingestAnswer struct {
	Success bool   `json:"success"`
	Error   string `json:"error"`
	Message string `json:"message"`
	Errors  []struct {
		Index  *int   `json:"index"` // absent for a batch-level field
		Field  string `json:"field"`
		Reason string `json:"reason"`
	} `json:"errors"`
}

// deliver sends one batch until it is accepted, permanently refused, or out
// of attempts, then reports and releases it.
func (c *Client) deliver(b *batch) {
	defer func() {
		c.mu.Lock()
		delete(c.inflight, b)
		c.held -= len(b.msgs)
		c.mu.Unlock()
		close(b.done)
	}()
	for attempt := 1; ; attempt++ {
		status, header, answer, err := c.post(b)
		switch classify(status, err) {
		case accepted:
			c.debugf("batch of %d accepted (HTTP %d, attempt %d)", len(b.msgs), status, attempt)
			if c.cfg.onSuccess != nil {
				c.cfg.onSuccess(b.ids())
			}
			return
		case retry:
			if attempt < c.cfg.maxAttempts {
				wait := nextDelay(attempt, c.cfg.retryDelay, c.cfg.maxRetryDelay,
					parseRetryAfter(header.Get("Retry-After"), time.Now()), randomFloat())
				c.debugf("batch of %d failed (HTTP %d, %v), attempt %d of %d, retrying in %s",
					len(b.msgs), status, err, attempt, c.cfg.maxAttempts, wait)
				time.Sleep(wait)
				continue
			}
		}
		b.err = c.failure(b, attempt, status, answer, err)
		c.cfg.logger.Printf("%v", b.err)
		if c.cfg.onError != nil {
			c.cfg.onError(b.err)
		}
		return
	}
}

func (c *Client) failure(b *batch, attempts, status int, answer *ingestAnswer, err error) *DeliveryError {
	e := &DeliveryError{
		MessageIds: b.ids(),
		StatusCode: status,
		Attempts:   attempts,
		Permanent:  classify(status, err) == permanent,
		Err:        err,
	}
	if answer != nil {
		e.Code, e.Message = answer.Error, answer.Message
		for _, fe := range answer.Errors {
			f := FieldError{Index: -1, Field: fe.Field, Reason: fe.Reason}
			if fe.Index != nil {
				f.Index = *fe.Index
				if f.Index >= 0 && f.Index < len(b.msgs) {
					f.MessageId = b.msgs[f.Index].id
				}
			}
			e.Errors = append(e.Errors, f)
		}
	}
	return e
}

// post makes one attempt. A nil error means a response arrived.
func (c *Client) post(b *batch) (int, http.Header, *ingestAnswer, error) {
	body := b.body(time.Now())
	req, err := http.NewRequest(http.MethodPost, c.cfg.url, bytes.NewReader(body))
	if err != nil {
		// A malformed Endpoint will not get better: report it as a 0-status
		// permanent failure by giving up after this attempt.
		return 0, http.Header{}, nil, &permanentError{err}
	}
	req.SetBasicAuth(c.writeKey, "")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", LibraryName+"/"+Version)
	c.debugf("POST %s: %d messages, %d bytes", c.cfg.url, len(b.msgs), len(body))
	res, err := c.cfg.http.Do(req)
	if err != nil {
		return 0, http.Header{}, nil, err
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	var answer *ingestAnswer
	if len(raw) > 0 {
		var a ingestAnswer
		if json.Unmarshal(raw, &a) == nil {
			answer = &a
		}
	}
	if res.StatusCode >= 300 {
		c.debugf("HTTP %d: %s", res.StatusCode, strings.TrimSpace(string(raw)))
	}
	return res.StatusCode, res.Header, answer, nil
}

// permanentError marks a transport-level error that retrying cannot fix.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

func (c *Client) debugf(format string, args ...interface{}) {
	if c.cfg.debug {
		c.cfg.logger.Printf("analytics: "+format, args...)
	}
}

// newMessageID returns a random (version 4) UUID.
func newMessageID() string {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		panic(fmt.Sprintf("analytics: crypto/rand failed: %v", err))
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// randomFloat returns a jitter value in [0, 1).
func randomFloat() float64 { return mrand.Float64() }
