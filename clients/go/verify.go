package analytics

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// SignatureScheme names how a webhook request from Switchyard is signed.
type SignatureScheme string

const (
	// SchemeSegment is X-Signature: the hex HMAC-SHA1 of the body, keyed
	// with the shared secret's text.
	SchemeSegment SignatureScheme = "segment"
	// SchemeStandardWebhooks is the Standard Webhooks scheme: webhook-id,
	// webhook-timestamp and webhook-signature, the base64 HMAC-SHA256 of
	// "id.timestamp.body" keyed with the bytes of a whsec_ secret.
	SchemeStandardWebhooks SignatureScheme = "standard-webhooks"
)

// DefaultWebhookTolerance is how far webhook-timestamp may be from now,
// either way, unless VerifyOptions says otherwise.
const DefaultWebhookTolerance = 5 * time.Minute

const standardSecretPrefix = "whsec_"

var (
	// ErrMissingSignature: the request carries none of the scheme's headers.
	ErrMissingSignature = errors.New("analytics: webhook: missing-signature")
	// ErrSignatureMismatch: no signature in the request matches the body
	// under the secret (a tampered body, or another secret).
	ErrSignatureMismatch = errors.New("analytics: webhook: signature-mismatch")
	// ErrInvalidTimestamp: webhook-timestamp is not epoch seconds.
	ErrInvalidTimestamp = errors.New("analytics: webhook: invalid-timestamp")
	// ErrTimestampOutOfTolerance: webhook-timestamp is further from now than
	// the tolerance, so the request may be a replay.
	ErrTimestampOutOfTolerance = errors.New("analytics: webhook: timestamp-out-of-tolerance")
)

// VerifyOptions adjusts VerifyWebhook; the zero value is the default.
type VerifyOptions struct {
	// Scheme to check. Empty: it follows the secret, a whsec_ secret checks
	// the Standard Webhooks headers and any other X-Signature. Deciding from
	// the secret, never from the request, stops a forger from stripping the
	// timestamped headers to fall back to X-Signature.
	Scheme SignatureScheme
	// Tolerance for webhook-timestamp, either way. Zero: DefaultWebhookTolerance.
	Tolerance time.Duration
	// Now returns the current time. Nil: time.Now.
	Now func() time.Time
}

// VerifyWebhook checks that a webhook request came from Switchyard with
// secret, and returns nil when it did. Under SchemeSegment it accepts a
// match in X-Signature or X-Signature-Next (sent during a secret rotation);
// under SchemeStandardWebhooks any of the space-separated v1 signatures,
// with the timestamp inside the tolerance. Digests are compared in constant
// time. Pass at most one VerifyOptions.
//
// body must be the request body exactly as received, before any JSON
// decoding: re-encoding a decoded body is not byte-exact across languages,
// so a signature checked over it can fail for a genuine request.
func VerifyWebhook(body []byte, header http.Header, secret string, options ...VerifyOptions) error {
	var o VerifyOptions
	if len(options) > 0 {
		o = options[0]
	}
	scheme := o.Scheme
	if scheme == "" {
		scheme = SchemeSegment
		if strings.HasPrefix(secret, standardSecretPrefix) {
			scheme = SchemeStandardWebhooks
		}
	}
	if scheme == SchemeStandardWebhooks {
		return verifyStandard(body, header, secret, o)
	}
	return verifySegment(body, header, secret)
}

func verifySegment(body []byte, header http.Header, secret string) error {
	mac := hmac.New(sha1.New, []byte(secret))
	mac.Write(body)
	expected := mac.Sum(nil)
	found := false
	for _, name := range []string{"X-Signature", "X-Signature-Next"} {
		value := header.Get(name)
		if value == "" {
			continue
		}
		found = true
		if given, err := hex.DecodeString(value); err == nil && hmac.Equal(expected, given) {
			return nil
		}
	}
	if !found {
		return ErrMissingSignature
	}
	return ErrSignatureMismatch
}

func verifyStandard(body []byte, header http.Header, secret string, o VerifyOptions) error {
	id, timestamp, signatures := header.Get("Webhook-Id"), header.Get("Webhook-Timestamp"), header.Get("Webhook-Signature")
	if id == "" || timestamp == "" || signatures == "" {
		return ErrMissingSignature
	}
	seconds, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil || seconds < 0 || strings.HasPrefix(timestamp, "+") {
		return ErrInvalidTimestamp
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	tolerance := o.Tolerance
	if tolerance == 0 {
		tolerance = DefaultWebhookTolerance
	}
	if drift := now().Unix() - seconds; drift > int64(tolerance/time.Second) || -drift > int64(tolerance/time.Second) {
		return ErrTimestampOutOfTolerance
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, standardSecretPrefix))
	if err != nil || len(key) == 0 {
		return ErrSignatureMismatch
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	expected := mac.Sum(nil)
	for _, entry := range strings.Split(signatures, " ") {
		version, signature, ok := strings.Cut(entry, ",")
		if !ok || version != "v1" {
			continue
		}
		if given, err := base64.StdEncoding.DecodeString(signature); err == nil && hmac.Equal(expected, given) {
			return nil
		}
	}
	return ErrSignatureMismatch
}
