package analytics

import (
	"encoding/json"
	"fmt"
	"time"
)

// MaxIdLength is the longest id (UserId, AnonymousId, GroupId, PreviousId,
// MessageId) the ingest API accepts, in characters as a reader counts them.
const MaxIdLength = 512

// characterCount counts characters as the ingest API does: an emoji is one, a
// variation selector (U+FE0E, U+FE0F) none.
func characterCount(s string) int {
	n := 0
	for _, r := range s {
		if r != '\uFE0E' && r != '\uFE0F' {
			n++
		}
	}
	return n
}

// checkIdLengths refuses an id the ingest API would refuse as too long.
func checkIdLengths(kind string, ids map[string]string) error {
	for _, field := range []string{"UserId", "AnonymousId", "GroupId", "PreviousId", "MessageId"} {
		if characterCount(ids[field]) > MaxIdLength {
			return &ValidationError{Type: kind, Field: field,
				Reason: fmt.Sprintf("%s must be at most %d characters", field, MaxIdLength)}
		}
	}
	return nil
}

// Identify ties a user to their traits. UserId or AnonymousId is required.
type Identify struct {
	UserId       string
	AnonymousId  string
	Traits       map[string]interface{}
	Context      map[string]interface{}
	Integrations map[string]interface{}
	// Timestamp is an ISO 8601 date-time (see the package documentation for the
	// accepted forms). Empty means the server stamps the time of receipt.
	Timestamp string
	// MessageId is generated when empty.
	MessageId string
}

// Track records an action a user performed. Event is required, and UserId or
// AnonymousId.
type Track struct {
	Event        string
	UserId       string
	AnonymousId  string
	Properties   map[string]interface{}
	Context      map[string]interface{}
	Integrations map[string]interface{}
	Timestamp    string
	MessageId    string
}

// Page records a page view. UserId is required (as the Segment Go library v2
// documents it); AnonymousId may be sent alongside it.
//
// Traits holds the page's properties and is sent as "properties": url, title,
// referrer and path are recognised, custom keys are allowed. Properties is an
// alias for readers used to the newer Segment libraries; when both are set
// they are merged and Properties wins on a shared key.
type Page struct {
	UserId       string
	AnonymousId  string
	Category     string
	Name         string
	Traits       map[string]interface{}
	Properties   map[string]interface{}
	Context      map[string]interface{}
	Integrations map[string]interface{}
	Timestamp    string
	MessageId    string
}

// Screen records a screen view in a mobile app. UserId or AnonymousId is
// required.
type Screen struct {
	UserId       string
	AnonymousId  string
	Category     string
	Name         string
	Properties   map[string]interface{}
	Context      map[string]interface{}
	Integrations map[string]interface{}
	Timestamp    string
	MessageId    string
}

// Group ties a user to a group (an account, a company). GroupId is required,
// and UserId or AnonymousId.
type Group struct {
	GroupId      string
	UserId       string
	AnonymousId  string
	Traits       map[string]interface{}
	Context      map[string]interface{}
	Integrations map[string]interface{}
	Timestamp    string
	MessageId    string
}

// Alias merges the identity PreviousId into UserId. Both are required.
type Alias struct {
	UserId       string
	PreviousId   string
	Context      map[string]interface{}
	Integrations map[string]interface{}
	Timestamp    string
	MessageId    string
}

// wireMessage is one message as the Segment HTTP Tracking API expects it.
type wireMessage struct {
	Type         string                 `json:"type"`
	MessageID    string                 `json:"messageId"`
	Timestamp    string                 `json:"timestamp,omitempty"`
	UserID       string                 `json:"userId,omitempty"`
	AnonymousID  string                 `json:"anonymousId,omitempty"`
	PreviousID   string                 `json:"previousId,omitempty"`
	GroupID      string                 `json:"groupId,omitempty"`
	Event        string                 `json:"event,omitempty"`
	Category     string                 `json:"category,omitempty"`
	Name         string                 `json:"name,omitempty"`
	Properties   map[string]interface{} `json:"properties,omitempty"`
	Traits       map[string]interface{} `json:"traits,omitempty"`
	Context      map[string]interface{} `json:"context"`
	Integrations map[string]interface{} `json:"integrations,omitempty"`
}

// common holds the fields every record has, so they are validated in one place.
type common struct {
	kind         string
	userID       string
	anonymousID  string
	context      map[string]interface{}
	integrations map[string]interface{}
	timestamp    string
	messageID    string
}

// timestampLayouts are the ISO 8601 date-time forms a record's Timestamp may
// take. Fractional seconds of any precision are accepted by the first two.
// An offset (or Z) is required: a date-time without one is ambiguous.
var timestampLayouts = []string{
	time.RFC3339Nano,                     // 2006-01-02T15:04:05Z, 2006-01-02T15:04:05.000+07:00
	"2006-01-02T15:04:05.999999999Z0700", // 2006-01-02T15:04:05-0700 (Segment's older libraries)
}

// parseTimestamp reports whether s is an accepted ISO 8601 date-time.
func parseTimestamp(s string) (time.Time, bool) {
	for _, layout := range timestampLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func (m common) validate(w *wireMessage) error {
	ids := map[string]string{"UserId": m.userID, "AnonymousId": m.anonymousID, "GroupId": w.GroupID,
		"PreviousId": w.PreviousID, "MessageId": m.messageID}
	if err := checkIdLengths(m.kind, ids); err != nil {
		return err
	}
	if m.timestamp != "" {
		if _, ok := parseTimestamp(m.timestamp); !ok {
			return &ValidationError{Type: m.kind, Field: "Timestamp",
				Reason: fmt.Sprintf("%q is not an ISO 8601 date-time such as 2006-01-02T15:04:05.000Z or 2006-01-02T15:04:05-0700", m.timestamp)}
		}
	}
	for key, value := range m.integrations {
		switch value.(type) {
		case bool, map[string]interface{}:
		default:
			return &ValidationError{Type: m.kind, Field: "Integrations",
				Reason: fmt.Sprintf("value of %q must be a bool (or an options object), got %T", key, value)}
		}
	}
	return nil
}

func requireUser(kind, userID, anonymousID string) error {
	if userID == "" && anonymousID == "" {
		return &ValidationError{Type: kind, Field: "UserId", Reason: "UserId or AnonymousId is required"}
	}
	return nil
}

func required(kind, field, value string) error {
	if value == "" {
		return &ValidationError{Type: kind, Field: field, Reason: field + " is required"}
	}
	return nil
}

// build validates the common fields and fills in what every wire message carries.
func (m common) build(w *wireMessage, newID func() string) error {
	if err := m.validate(w); err != nil {
		return err
	}
	w.Type = m.kind
	w.MessageID = m.messageID
	if w.MessageID == "" {
		w.MessageID = newID()
	}
	w.Timestamp = m.timestamp
	w.UserID = m.userID
	w.AnonymousID = m.anonymousID
	w.Integrations = m.integrations
	// The caller's context map is copied, never modified: library is ours.
	w.Context = make(map[string]interface{}, len(m.context)+1)
	for k, v := range m.context {
		w.Context[k] = v
	}
	w.Context["library"] = map[string]interface{}{"name": LibraryName, "version": Version}
	return nil
}

func (msg Identify) toWire(newID func() string) (*wireMessage, error) {
	if err := requireUser("identify", msg.UserId, msg.AnonymousId); err != nil {
		return nil, err
	}
	w := &wireMessage{Traits: msg.Traits}
	c := common{"identify", msg.UserId, msg.AnonymousId, msg.Context, msg.Integrations, msg.Timestamp, msg.MessageId}
	return w, c.build(w, newID)
}

func (msg Track) toWire(newID func() string) (*wireMessage, error) {
	if err := required("track", "Event", msg.Event); err != nil {
		return nil, err
	}
	if err := requireUser("track", msg.UserId, msg.AnonymousId); err != nil {
		return nil, err
	}
	w := &wireMessage{Event: msg.Event, Properties: msg.Properties}
	c := common{"track", msg.UserId, msg.AnonymousId, msg.Context, msg.Integrations, msg.Timestamp, msg.MessageId}
	return w, c.build(w, newID)
}

func (msg Page) toWire(newID func() string) (*wireMessage, error) {
	if err := required("page", "UserId", msg.UserId); err != nil {
		return nil, err
	}
	props := msg.Traits
	if len(msg.Properties) > 0 {
		props = make(map[string]interface{}, len(msg.Traits)+len(msg.Properties))
		for k, v := range msg.Traits {
			props[k] = v
		}
		for k, v := range msg.Properties {
			props[k] = v
		}
	}
	w := &wireMessage{Category: msg.Category, Name: msg.Name, Properties: props}
	c := common{"page", msg.UserId, msg.AnonymousId, msg.Context, msg.Integrations, msg.Timestamp, msg.MessageId}
	return w, c.build(w, newID)
}

func (msg Screen) toWire(newID func() string) (*wireMessage, error) {
	if err := requireUser("screen", msg.UserId, msg.AnonymousId); err != nil {
		return nil, err
	}
	w := &wireMessage{Category: msg.Category, Name: msg.Name, Properties: msg.Properties}
	c := common{"screen", msg.UserId, msg.AnonymousId, msg.Context, msg.Integrations, msg.Timestamp, msg.MessageId}
	return w, c.build(w, newID)
}

func (msg Group) toWire(newID func() string) (*wireMessage, error) {
	if err := required("group", "GroupId", msg.GroupId); err != nil {
		return nil, err
	}
	if err := requireUser("group", msg.UserId, msg.AnonymousId); err != nil {
		return nil, err
	}
	w := &wireMessage{GroupID: msg.GroupId, Traits: msg.Traits}
	c := common{"group", msg.UserId, msg.AnonymousId, msg.Context, msg.Integrations, msg.Timestamp, msg.MessageId}
	return w, c.build(w, newID)
}

func (msg Alias) toWire(newID func() string) (*wireMessage, error) {
	if err := required("alias", "UserId", msg.UserId); err != nil {
		return nil, err
	}
	if err := required("alias", "PreviousId", msg.PreviousId); err != nil {
		return nil, err
	}
	w := &wireMessage{PreviousID: msg.PreviousId}
	c := common{"alias", msg.UserId, "", msg.Context, msg.Integrations, msg.Timestamp, msg.MessageId}
	return w, c.build(w, newID)
}

// encode serialises a wire message and enforces the per-call size limit.
func encode(w *wireMessage) ([]byte, error) {
	b, err := json.Marshal(w)
	if err != nil {
		return nil, &ValidationError{Type: w.Type, Field: "", Reason: "cannot be encoded as JSON: " + err.Error()}
	}
	if len(b) > MaxMessageBytes {
		return nil, fmt.Errorf("%w: %s message is %d bytes, the limit is %d", ErrTooLarge, w.Type, len(b), MaxMessageBytes)
	}
	return b, nil
}
