package analytics

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trackingRuleCase is one case of the Tracking API's rules shared with ingest
// and the TypeScript client: a message and the JSON fields it is refused for.
type trackingRuleCase struct {
	Name    string                 `json:"name"`
	Message map[string]interface{} `json:"message"`
	Refused []string               `json:"refused"`
}

func loadTrackingRuleCases(t *testing.T) []trackingRuleCase {
	t.Helper()
	path := filepath.Join("..", "..", "libs", "contracts", "src", "calls", "tracking-rules.cases.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the shared cases: %v", err)
	}
	var file struct {
		Cases []trackingRuleCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatalf("parsing %s: %v", path, err)
	}
	if len(file.Cases) == 0 {
		t.Fatalf("%s holds no cases", path)
	}
	return file.Cases
}

// toWireOf builds the case's message as this client's record of its type and
// validates it the way a call does.
func toWireOf(t *testing.T, m map[string]interface{}) error {
	t.Helper()
	str := func(key string) string { s, _ := m[key].(string); return s }
	obj := func(key string) map[string]interface{} { o, _ := m[key].(map[string]interface{}); return o }
	newID := func() string { return "generated" }
	var err error
	switch str("type") {
	case "identify":
		_, err = Identify{UserId: str("userId"), AnonymousId: str("anonymousId"), Traits: obj("traits"),
			Integrations: obj("integrations"), Timestamp: str("timestamp"), MessageId: str("messageId")}.toWire(newID)
	case "track":
		_, err = Track{Event: str("event"), UserId: str("userId"), AnonymousId: str("anonymousId"),
			Properties: obj("properties"), Integrations: obj("integrations"), Timestamp: str("timestamp"),
			MessageId: str("messageId")}.toWire(newID)
	case "page":
		_, err = Page{UserId: str("userId"), AnonymousId: str("anonymousId"), Name: str("name"),
			Category: str("category"), Properties: obj("properties"), Integrations: obj("integrations"),
			Timestamp: str("timestamp"), MessageId: str("messageId")}.toWire(newID)
	case "screen":
		_, err = Screen{UserId: str("userId"), AnonymousId: str("anonymousId"), Name: str("name"),
			Category: str("category"), Properties: obj("properties"), Integrations: obj("integrations"),
			Timestamp: str("timestamp"), MessageId: str("messageId")}.toWire(newID)
	case "group":
		_, err = Group{GroupId: str("groupId"), UserId: str("userId"), AnonymousId: str("anonymousId"),
			Traits: obj("traits"), Integrations: obj("integrations"), Timestamp: str("timestamp"),
			MessageId: str("messageId")}.toWire(newID)
	case "alias":
		_, err = Alias{UserId: str("userId"), PreviousId: str("previousId"), Integrations: obj("integrations"),
			Timestamp: str("timestamp"), MessageId: str("messageId")}.toWire(newID)
	default:
		t.Fatalf("case with unknown type %q", str("type"))
	}
	return err
}

// The Go client keeps its own rules; these cases hold them to ingest's. It
// stops at the first broken rule, so a refused message must name one of the
// case's fields.
func TestFollowsTheTrackingAPIRulesSharedWithIngest(t *testing.T) {
	for _, c := range loadTrackingRuleCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			err := toWireOf(t, c.Message)
			if len(c.Refused) == 0 {
				if err != nil {
					t.Fatalf("refused a valid message: %v", err)
				}
				return
			}
			var invalid *ValidationError
			if !errors.As(err, &invalid) {
				t.Fatalf("accepted a message ingest refuses for %v (err %v)", c.Refused, err)
			}
			field := strings.ToLower(invalid.Field[:1]) + invalid.Field[1:]
			for _, want := range c.Refused {
				if field == want {
					return
				}
			}
			t.Fatalf("refused it for %s, want one of %v", invalid.Field, c.Refused)
		})
	}
}
