package core

// KickReminders tries the reminders whose delivery channel was not ready
// (reminders.ErrNotReady: the Discord bot was off or still connecting) at
// once, and rescans: call it when the bot becomes ready (Bot.OnReady), so
// reminders that fell due while it was down are delivered then, once. It
// does nothing before StartReminders or after StopReminders.
func (c *Core) KickReminders() {
	c.schedMu.Lock()
	s := c.scheduler
	c.schedMu.Unlock()
	if s != nil {
		s.Kick()
	}
}
