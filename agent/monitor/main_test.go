package monitor

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no agent run outlives its test. Idle keep-alive
// connections of the HTTP client are not runs.
func TestMain(m *testing.M) {
	if os.Getenv(childDirEnv) != "" {
		os.Exit(m.Run())
	}
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"),
	)
}
