package store

// InUse reports whether another live process has the database at path
// open (its stream-owner lock is held). A restore refuses to replace the
// file under it (backend/backup).
func InUse(path string) bool { return anotherOwnerAlive(path) }
