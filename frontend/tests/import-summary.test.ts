import { describe, expect, it } from 'vitest'
import type { ImportResult } from '@/api/types'
import { importSummary, type Translate } from '@/utils/importSummary'
import { testI18n } from './helpers'

const session = { id: 's1', title: '東京の天気について', model: '', createdAt: '', updatedAt: '' }
const gpt: ImportResult = {
  session, messages: 6, memories: 0, format: 'chatgpt', sessions: 2,
  placeholders: 4, skipped: 5, skippedConversations: 1, branches: 2, truncated: 0,
}

function translate(locale: 'en' | 'ja'): Translate {
  const g = testI18n(locale).global
  return (key, named, plural) => (plural === undefined ? g.t(key, named) : g.t(key, named, plural))
}

describe('the import toast', () => {
  it('counts the chats of a ChatGPT export and says what was left out or kept aside', () => {
    expect(importSummary(translate('en'), gpt)).toBe(
      'Imported 2 chats (6 messages) from ChatGPT. 4 images, attachments or tool steps shown as placeholders; ' +
        '5 system, hidden or empty messages skipped; 1 empty conversation skipped; ' +
        '2 other branches (edits or regenerations) kept as versions.',
    )
    expect(importSummary(translate('ja'), gpt)).toBe(
      'ChatGPT からチャット 2 件をインポートしました（メッセージ 6 件）。画像・添付ファイル・ツールの 4 箇所はプレースホルダーで表示、' +
        'システム・非表示・空のメッセージ 5 件をスキップ、空の会話 1 件をスキップ、別の分岐（編集・再生成）2 件も別バージョンとして取り込みました。',
    )
  })

  it('counts the messages cut at the 1 MiB limit', () => {
    const res = { ...gpt, placeholders: 0, skipped: 0, skippedConversations: 0, branches: 0 }
    expect(importSummary(translate('en'), { ...res, truncated: 1 })).toBe(
      'Imported 2 chats (6 messages) from ChatGPT. 1 message over the 1 MiB limit cut there (marked “[message cut: …]”).',
    )
    expect(importSummary(translate('en'), { ...res, truncated: 3 })).toContain('3 messages over the 1 MiB limit cut there')
    expect(importSummary(translate('ja'), { ...res, truncated: 3 })).toBe(
      'ChatGPT からチャット 2 件をインポートしました（メッセージ 6 件）。上限 1 MiB を超えるメッセージ 3 件を上限で切りました（末尾に「[message cut: …]」と表示）。',
    )
  })

  it('leaves zero counts out of a Claude export', () => {
    const res = { ...gpt, format: 'claude', sessions: 1, messages: 1, placeholders: 0, skipped: 0, skippedConversations: 0, branches: 0 }
    expect(importSummary(translate('en'), res)).toBe('Imported 1 chat (1 message) from Claude')
  })

  it('names the chat of a playchat session file as before', () => {
    const res = { ...gpt, format: 'native', sessions: 1, messages: 3, memories: 1 }
    expect(importSummary(translate('en'), res)).toBe('Imported “東京の天気について” (3 messages, 1 memory)')
    expect(importSummary(translate('en'), { ...res, session: { ...session, title: '' } })).toContain('“Untitled chat”')
  })
})
