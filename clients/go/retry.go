package analytics

import (
	"errors"
	"net/http"
	"strconv"
	"time"
)

// outcome is what one attempt's result means for its batch.
type outcome int

const (
	accepted  outcome = iota // 2xx: the ingest API has the messages
	retry                    // worth another attempt later
	permanent                // the same request would fail again: report and drop
)

// classify decides, in one place, what an attempt's result means.
// A transport error (no response, except a request that could not be built) and 408, 429 and 5xx are retried; 2xx is
// success; everything else (other 4xx, unexpected 1xx/3xx) is permanent.
func classify(status int, transportErr error) outcome {
	var notRetryable *permanentError
	switch {
	case errors.As(transportErr, &notRetryable):
		return permanent
	case transportErr != nil:
		return retry
	case status >= 200 && status < 300:
		return accepted
	case status == http.StatusRequestTimeout, status == http.StatusTooManyRequests, status >= 500:
		return retry
	default:
		return permanent
	}
}

// nextDelay is the wait before retry number attempt (1 for the first retry):
// exponential from base, capped at max, with "equal jitter" (half fixed, half
// random) so that many clients do not retry in step. random is in [0, 1).
// A Retry-After the server sent (retryAfter > 0) replaces the computed delay,
// bounded by max.
func nextDelay(attempt int, base, max time.Duration, retryAfter time.Duration, random float64) time.Duration {
	if retryAfter > 0 {
		if retryAfter > max {
			return max
		}
		return retryAfter
	}
	d := base
	for i := 1; i < attempt && d < max; i++ {
		d *= 2
	}
	if d > max {
		d = max
	}
	half := d / 2
	return half + time.Duration(random*float64(d-half))
}

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP date.
// It returns 0 when the header is absent or unreadable.
func parseRetryAfter(value string, now time.Time) time.Duration {
	if value == "" {
		return 0
	}
	if secs, err := strconv.Atoi(value); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(value); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}
