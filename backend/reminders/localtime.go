package reminders

import "os"

// readLocaltimeLink reads the target of /etc/localtime (a link into a
// zoneinfo tree on Linux and macOS).
func readLocaltimeLink() (string, error) { return os.Readlink("/etc/localtime") }
