package analytics

import (
	"errors"
	"fmt"
	"strings"
)

var (
	// ErrClosed is returned by every call made after Close.
	ErrClosed = errors.New("analytics: client is closed")

	// ErrQueueFull is returned when MaxQueueSize messages are already waiting
	// to be delivered. The message is not queued; the caller decides whether to
	// drop it, retry later or slow down.
	ErrQueueFull = errors.New("analytics: queue is full")

	// ErrTooLarge is returned (wrapped, use errors.Is) when one message
	// serialises to more than MaxMessageBytes. The message is not queued.
	ErrTooLarge = errors.New("analytics: message too large")
)

// ValidationError is returned synchronously when a record breaks a rule; the
// message is not queued.
type ValidationError struct {
	Type   string // call type: "identify", "track", "page", "screen", "group", "alias"
	Field  string // Go field name of the record, e.g. "UserId"; empty when the whole record is at fault
	Reason string
}

func (e *ValidationError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("analytics: invalid %s: %s", e.Type, e.Reason)
	}
	return fmt.Sprintf("analytics: invalid %s: %s: %s", e.Type, e.Field, e.Reason)
}

// FieldError is one per-message reason from a 4xx answer of the ingest API.
type FieldError struct {
	Index     int    // position of the message in the rejected batch; -1 for a field of the batch itself
	MessageId string // messageId of that message, when Index is in range
	Field     string
	Reason    string
}

// DeliveryError describes a batch that was not accepted. It is passed to
// Client.OnError, logged, and returned by Flush and Close for the batches they
// waited for. The batch's messages are dropped once it is reported.
type DeliveryError struct {
	MessageIds []string     // every message of the batch
	StatusCode int          // HTTP status of the last attempt; 0 when no response came
	Code       string       // "error" of the ingest API's JSON answer, if any
	Message    string       // "message" of the ingest API's JSON answer, if any
	Errors     []FieldError // "errors" of the ingest API's JSON answer, if any
	Attempts   int          // requests made for this batch
	Permanent  bool         // true when the answer ruled out a retry (a 4xx other than 408/429)
	Err        error        // transport error of the last attempt, if any
}

func (e *DeliveryError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "analytics: %d message(s) not delivered after %d attempt(s)", len(e.MessageIds), e.Attempts)
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, ": HTTP %d", e.StatusCode)
	}
	if e.Code != "" {
		fmt.Fprintf(&b, " %s", e.Code)
	}
	if e.Message != "" {
		fmt.Fprintf(&b, ": %s", e.Message)
	}
	for _, fe := range e.Errors {
		if fe.Index < 0 {
			fmt.Fprintf(&b, "; %s: %s", fe.Field, fe.Reason)
		} else {
			fmt.Fprintf(&b, "; [%d] %s: %s", fe.Index, fe.Field, fe.Reason)
		}
	}
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	return b.String()
}

func (e *DeliveryError) Unwrap() error { return e.Err }
