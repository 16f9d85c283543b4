package store

// MigrationReminderAttempts adds reminders.attempts: how many deliveries of
// the reminder's current due time have failed in a row (issue 13: a
// reminder whose Discord channel fails is retried with backoff and given up
// after 5 failures). It is kept in the table, not in memory, so a restart
// of the app or the bot between retries does not start the count again:
// a channel that is gone for good still ends in state failed. Delivery,
// snooze and edit reset it to 0.
const MigrationReminderAttempts = "20261201000015_reminder_attempts"

// stepReminderAttempts is MigrationReminderAttempts's statements (registered in steps, migrations.go).
var stepReminderAttempts = step{MigrationReminderAttempts, []string{
	`ALTER TABLE reminders ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0`,
}}
