// The toast text of a session import (SessionService.ImportFromFile): a
// playchat session file names the chat; a ChatGPT or Claude export counts the
// chats and says what was shown as placeholders, skipped or left out.

import type { ImportResult } from '@/api/types'

/** vue-i18n's t with named values and a plural count. */
export type Translate = (key: string, named: Record<string, unknown>, plural?: number) => string

const SOURCES: Record<string, string> = { chatgpt: 'ChatGPT', claude: 'Claude' }

/** The toast text for res, in the language of t. Zero counts are not mentioned. */
export function importSummary(t: Translate, res: ImportResult): string {
  const messages = t('sessions.messageCount', { n: res.messages }, res.messages)
  if (!res.format || res.format === 'native') {
    return t('sessions.imported', {
      title: res.session.title || t('sessions.untitled', {}),
      messages,
      memories: t('sessions.memoryCount', { n: res.memories }, res.memories),
    })
  }
  const head = t('sessions.importedExport', {
    sessions: t('sessions.sessionCount', { n: res.sessions }, res.sessions),
    messages,
    source: SOURCES[res.format] ?? res.format,
  })
  const notes: string[] = []
  const add = (key: string, n: number | undefined) => {
    if (n) notes.push(t(key, { n }, n))
  }
  add('sessions.importPlaceholders', res.placeholders)
  add('sessions.importSkipped', res.skipped)
  add('sessions.importEmptyChats', res.skippedConversations)
  add('sessions.importBranches', res.branches)
  add('sessions.importTruncated', res.truncated)
  if (!notes.length) return head
  return t('sessions.importWithNotes', { head, notes: notes.join(t('sessions.importNoteSeparator', {})) })
}
