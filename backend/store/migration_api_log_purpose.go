package store

// MigrationAPILogPurpose records what each logged LLM call was for (issue
// 22: API logs showed 91 calls for 5 turns and no way to tell a turn from
// a background tag request): "turn", "summary", "tags", "knowledge",
// "tip", or "" for calls logged before it was kept.
const MigrationAPILogPurpose = "20261201000021_api_log_purpose"

// stepAPILogPurpose is MigrationAPILogPurpose's statements (registered in steps, migrations.go).
var stepAPILogPurpose = step{MigrationAPILogPurpose, []string{
	`ALTER TABLE api_logs ADD COLUMN purpose VARCHAR NOT NULL DEFAULT ''`,
}}
