import type ja from './fatal-ja'

// The window's start-up error screen (StartupErrorScreen.vue, issue 21), in
// English; part of en.ts, keys in step with fatal-ja.ts.
const fatal: typeof ja = {
  damaged: {
    title: 'The database is damaged',
    what: 'Nothing was changed: playchat has not written to the file. To go back, quit playchat, put a backup copy of the data folder in its place, and start playchat again.',
    whatRunning: 'playchat stopped writing to the database as soon as it found the damage. Quit playchat, put a backup copy of the data folder in its place, and start playchat again.',
    noBackup: 'No backup? Move playchat.db (and playchat.db-wal and playchat.db-shm, if there) out of the folder: playchat then starts with an empty history, and the damaged file is kept for recovery (sqlite3’s .recover can often save part of it).',
  },
  newer: {
    title: 'This data is from a newer playchat',
    what: 'Nothing was changed. If the newer version was replaced by this one, install it again to open this folder.',
  },
  other: {
    title: 'playchat could not start',
  },
  dataFolder: 'Data folder',
  openFolder: 'Open data folder',
  quit: 'Quit',
}

export default fatal
