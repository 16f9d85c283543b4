package backup

import (
	"testing"
	"time"
)

// While the app is busy, the pacer sleeps busyPause times the work done
// since its last check; while it is idle, it asks and goes on.
func TestPacerPausesOnlyWhileBusy(t *testing.T) {
	busy, asked := false, 0
	p := &pacer{busy: func() bool { asked++; return busy }}
	p.Write(nil)
	time.Sleep(2 * pauseEvery) // "work"
	p.Write(nil)
	if asked != 1 {
		t.Fatalf("Busy asked %d times, want 1", asked)
	}
	busy = true
	time.Sleep(2 * pauseEvery)
	start := time.Now()
	p.Write(nil)
	if took := time.Since(start); took < busyPause*2*pauseEvery {
		t.Errorf("busy: paused %v, want at least %v", took, busyPause*2*pauseEvery)
	}
	// A write soon after a check does not ask again.
	p.Write(nil)
	if asked != 2 {
		t.Errorf("Busy asked %d times, want 2", asked)
	}
	// No Busy: never paused.
	(&pacer{}).Write(nil)
}
