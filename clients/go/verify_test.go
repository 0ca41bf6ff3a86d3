package analytics

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// webhookVectors are requests as Switchyard's signer makes them (its tests
// pin them), with what a verifier must answer; the TypeScript client's tests
// read the same file.
type webhookVectors struct {
	Requests []struct {
		Name    string            `json:"name"`
		Body    string            `json:"body"`
		Headers map[string]string `json:"headers"`
		Checks  []struct {
			Secret     string          `json:"secret"`
			Scheme     SignatureScheme `json:"scheme"`
			NowSeconds int64           `json:"nowSeconds"`
			Tamper     bool            `json:"tamper"`
			Valid      bool            `json:"valid"`
			Reason     string          `json:"reason"`
		} `json:"checks"`
	} `json:"requests"`
}

var refusals = map[string]error{
	"missing-signature":          ErrMissingSignature,
	"signature-mismatch":         ErrSignatureMismatch,
	"invalid-timestamp":          ErrInvalidTimestamp,
	"timestamp-out-of-tolerance": ErrTimestampOutOfTolerance,
}

func loadWebhookVectors(t *testing.T) webhookVectors {
	t.Helper()
	raw, err := os.ReadFile("testdata/webhook-signatures.json")
	if err != nil {
		t.Fatal(err)
	}
	var v webhookVectors
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Requests) == 0 {
		t.Fatal("no test vectors")
	}
	return v
}

func httpHeader(headers map[string]string) http.Header {
	h := http.Header{}
	for name, value := range headers {
		h.Set(name, value)
	}
	return h
}

func TestVerifyWebhookAnswersEverySharedVectorAsTheTypeScriptHelperDoes(t *testing.T) {
	for _, request := range loadWebhookVectors(t).Requests {
		for i, check := range request.Checks {
			t.Run(fmt.Sprintf("%s/%d", request.Name, i), func(t *testing.T) {
				body := request.Body
				if check.Tamper {
					body = strings.Replace(body, "Order Completed", "Order Refunded", 1)
					if body == request.Body {
						t.Fatal("tampering left the body unchanged")
					}
				}
				err := VerifyWebhook([]byte(body), httpHeader(request.Headers), check.Secret, VerifyOptions{
					Scheme: check.Scheme,
					Now:    func() time.Time { return time.Unix(check.NowSeconds, 0) },
				})
				if check.Valid && err != nil {
					t.Fatalf("refused a genuine request: %v", err)
				}
				if !check.Valid && !errors.Is(err, refusals[check.Reason]) {
					t.Fatalf("want %s, got %v", check.Reason, err)
				}
			})
		}
	}
}

func TestVerifyWebhookRefusesABodyReEncodedAsPythonWritesIt(t *testing.T) {
	for _, request := range loadWebhookVectors(t).Requests {
		if request.Name != "standard-webhooks" {
			continue
		}
		check := request.Checks[0]
		// Python's json.dumps writes the number 1e-7 as 1e-07: the same value, other bytes.
		reEncoded := strings.Replace(request.Body, "1e-7", "1e-07", 1)
		err := VerifyWebhook([]byte(reEncoded), httpHeader(request.Headers), check.Secret, VerifyOptions{
			Now: func() time.Time { return time.Unix(check.NowSeconds, 0) },
		})
		if !errors.Is(err, ErrSignatureMismatch) {
			t.Fatalf("want a mismatch, got %v", err)
		}
		return
	}
	t.Fatal("no standard-webhooks vector")
}

func TestVerifyWebhookRefusesATimestampThatIsNotEpochSeconds(t *testing.T) {
	h := http.Header{}
	h.Set("webhook-id", "m1")
	h.Set("webhook-timestamp", "2026-01-01T00:00:00Z")
	h.Set("webhook-signature", "v1,AAAA")
	if err := VerifyWebhook([]byte("{}"), h, "whsec_AAAA"); !errors.Is(err, ErrInvalidTimestamp) {
		t.Fatalf("want invalid-timestamp, got %v", err)
	}
}
