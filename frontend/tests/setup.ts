// Every test starts with an empty localStorage: stores that keep unsaved
// text there (drafts, note edits) must not carry one test's text into the next.
import { beforeEach } from 'vitest'

beforeEach(() => {
  localStorage.clear()
})
