package monitor

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no agent run outlives its test. Idle keep-alive
// connections of the HTTP client are not runs.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"),
	)
}
