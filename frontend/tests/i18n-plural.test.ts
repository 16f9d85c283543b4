import { describe, expect, it } from 'vitest'
import { testI18n } from './helpers'

// English counts use vue-i18n's plural forms ("one | other"); Japanese has one form.
describe('plural messages', () => {
  const en = testI18n('en').global
  const ja = testI18n('ja').global

  it('says "1 document" but "0 documents" and "2 documents" in English', () => {
    expect(en.t('kb.status.indexed', { n: '1' }, 1)).toBe('1 document')
    expect(en.t('kb.status.indexed', { n: '0' }, 0)).toBe('0 documents')
    expect(en.t('kb.status.indexed', { n: '1,200' }, 1200)).toBe('1,200 documents')
  })

  it('covers the other counts', () => {
    expect(en.t('chat.showEarlier', { n: 1 }, 1)).toBe('Show 1 earlier message')
    expect(en.t('chat.showEarlier', { n: 100 }, 100)).toBe('Show 100 earlier messages')
    expect(en.t('kb.hitCount', { n: 1 }, 1)).toBe('1 result')
    expect(en.t('memory.messages', { n: 1 }, 1)).toBe('from 1 message')
    expect(en.t('kb.folderDocs', { n: 120 }, 120)).toBe('120 documents in this folder and its subfolders')
    expect(en.t('kb.folderDocs', { n: 1 }, 1)).toBe('1 document in this folder and its subfolders')
    expect(en.t('kb.status.embeddingPending', { n: 1 }, 1)).toBe('1 section pending')
    const imported = en.t('sessions.imported', {
      title: 'T',
      messages: en.t('sessions.messageCount', { n: 1 }, 1),
      memories: en.t('sessions.memoryCount', { n: 3 }, 3),
    })
    expect(imported).toBe('Imported “T” (1 message, 3 memories)')
  })

  it('keeps the single Japanese form for any count', () => {
    expect(ja.t('kb.status.indexed', { n: '1' }, 1)).toBe('文書 1 件')
    expect(ja.t('kb.status.indexed', { n: '5' }, 5)).toBe('文書 5 件')
    expect(ja.t('chat.showEarlier', { n: 100 }, 100)).toBe('さらに前の 100 件を表示')
    expect(ja.t('kb.folderDocs', { n: 0 }, 0)).toBe('このフォルダ以下の文書 0 件')
  })
})
