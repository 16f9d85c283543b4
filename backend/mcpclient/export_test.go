package mcpclient

import "testing"

// FakeStdio is fakeStdio for the external tests.
func FakeStdio(t *testing.T, name, mode string) Server { return fakeStdio(t, name, mode) }

// WaitState is waitState for the external tests.
func WaitState(t *testing.T, m *Manager, server, state string) Status {
	return waitState(t, m, server, state)
}

// FakeHTTP is fakeHTTP for the external tests: the URL of the fake over
// streamable HTTP, which wants the header X-Token: secret.
func FakeHTTP(t *testing.T) string { return fakeHTTP(t) }
