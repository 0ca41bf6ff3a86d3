// Package debug is a minimal stand-in for github.com/visionmedia/go-debug:
// Debug(name) returns a printf-style logger that writes to stderr when the
// DEBUG environment variable names it ("name", "name*" or "*", comma or
// space separated).
package debug

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// DebugFunction logs a formatted line when its name is enabled.
type DebugFunction func(format string, args ...interface{})

// Debug returns the logger for name.
func Debug(name string) DebugFunction {
	enabled := false
	for _, p := range strings.FieldsFunc(os.Getenv("DEBUG"), func(r rune) bool { return r == ',' || r == ' ' }) {
		if p == name || p == "*" || (strings.HasSuffix(p, "*") && strings.HasPrefix(name, strings.TrimSuffix(p, "*"))) {
			enabled = true
		}
	}
	return func(format string, args ...interface{}) {
		if enabled {
			fmt.Fprintf(os.Stderr, "%s %s - %s\n", time.Now().Format("15:04:05.000"), name, fmt.Sprintf(format, args...))
		}
	}
}
