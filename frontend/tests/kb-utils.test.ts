import { describe, expect, it } from 'vitest'
import {
  SEEDED_GUIDE, ancestorFolders, excerptParts, findHeading, formatBytes, headingLeaf, headingMatches, indexChanged,
  isSeedOnly, linkFragment, progressPercent, resolveKbLink, slugify,
} from '@/utils/kb'

describe('excerptParts', () => {
  it('splits marked terms from the text around them, marks removed', () => {
    expect(excerptParts('…Rust の«所有権»は«ルール»で決まる')).toEqual([
      { text: '…Rust の', mark: false },
      { text: '所有権', mark: true },
      { text: 'は', mark: false },
      { text: 'ルール', mark: true },
      { text: 'で決まる', mark: false },
    ])
  })

  it('handles marks at the edges, adjacent marks and no marks', () => {
    expect(excerptParts('«a»«b» c')).toEqual([
      { text: 'ab', mark: true },
      { text: ' c', mark: false },
    ])
    expect(excerptParts('plain')).toEqual([{ text: 'plain', mark: false }])
    expect(excerptParts('')).toEqual([])
  })

  it('keeps an unclosed « or a stray » as text and drops empty marks', () => {
    expect(excerptParts('a «b')).toEqual([{ text: 'a «b', mark: false }])
    expect(excerptParts('a » b «c» d')).toEqual([
      { text: 'a » b ', mark: false },
      { text: 'c', mark: true },
      { text: ' d', mark: false },
    ])
    expect(excerptParts('x«»y')).toEqual([{ text: 'xy', mark: false }])
  })

  it('leaves markup as plain text for the component to escape', () => {
    const parts = excerptParts('<img src=x onerror=alert(1)> «<b>hit</b>»')
    expect(parts).toEqual([
      { text: '<img src=x onerror=alert(1)> ', mark: false },
      { text: '<b>hit</b>', mark: true },
    ])
  })
})

describe('resolveKbLink', () => {
  it('resolves relative .md links against the current document', () => {
    expect(resolveKbLink('guide/intro.md', 'setup.md')).toBe('guide/setup.md')
    expect(resolveKbLink('guide/intro.md', './setup.md')).toBe('guide/setup.md')
    expect(resolveKbLink('guide/intro.md', '../faq.md')).toBe('faq.md')
    expect(resolveKbLink('a/b/c.md', '../../x/y.md')).toBe('x/y.md')
    expect(resolveKbLink('top.md', 'sub/deeper/doc.MD')).toBe('sub/deeper/doc.MD')
  })

  it('drops the fragment and query and decodes percent-escapes', () => {
    expect(resolveKbLink('a/b.md', 'c.md#section-2')).toBe('a/c.md')
    expect(resolveKbLink('a/b.md', 'c.md?x=1#y')).toBe('a/c.md')
    expect(resolveKbLink('a/b.md', '%E6%89%80%E6%9C%89%E6%A8%A9.md')).toBe('a/所有権.md')
    expect(resolveKbLink('a/b.md', 'my%20notes.md')).toBe('a/my notes.md')
    expect(resolveKbLink('a/b.md', 'sub\\win.md')).toBe('a/sub/win.md')
  })

  it('refuses links that leave the knowledge base', () => {
    expect(resolveKbLink('top.md', '../outside.md')).toBeNull()
    expect(resolveKbLink('a/b.md', '../../outside.md')).toBeNull()
    expect(resolveKbLink('a/b.md', '../a/../../x.md')).toBeNull()
    expect(resolveKbLink('a/b.md', '%2E%2E/%2E%2E/x.md')).toBeNull()
    expect(resolveKbLink('a/b.md', '..%2F..%2Fx.md')).toBeNull()
    expect(resolveKbLink('a/b.md', '..\\..\\x.md')).toBeNull()
    expect(resolveKbLink('a/b.md', '/etc/passwd.md')).toBeNull()
    expect(resolveKbLink('a/b.md', '%2Fetc%2Fx.md')).toBeNull()
    expect(resolveKbLink('a/b.md', '//host/share/x.md')).toBeNull()
    expect(resolveKbLink('a/b.md', 'C:/Users/x.md')).toBeNull()
    expect(resolveKbLink('a/b.md', 'C%3A%5Cx.md')).toBeNull()
  })

  it('refuses URLs with a scheme, non-documents, bare fragments and bad escapes', () => {
    expect(resolveKbLink('a/b.md', 'https://example.com/x.md')).toBeNull()
    expect(resolveKbLink('a/b.md', 'file:///etc/x.md')).toBeNull()
    expect(resolveKbLink('a/b.md', 'javascript:alert(1)//.md')).toBeNull()
    expect(resolveKbLink('a/b.md', 'image.png')).toBeNull()
    expect(resolveKbLink('a/b.md', 'folder/')).toBeNull()
    expect(resolveKbLink('a/b.md', '#heading')).toBeNull()
    expect(resolveKbLink('a/b.md', '')).toBeNull()
    expect(resolveKbLink('a/b.md', '%E0%A4%A.md')).toBeNull()
    expect(resolveKbLink('a/b.md', 'x%00.md')).toBeNull()
  })
})

describe('small helpers', () => {
  it('linkFragment decodes the part after #', () => {
    expect(linkFragment('doc.md#getting-started')).toBe('getting-started')
    expect(linkFragment('#%E8%A8%98%E6%86%B6')).toBe('記憶')
    expect(linkFragment('doc.md')).toBe('')
    expect(linkFragment('#%E0')).toBe('%E0')
  })

  it('progressPercent is a whole, clamped percentage', () => {
    expect(progressPercent(0, 0)).toBe(0)
    expect(progressPercent(5, 0)).toBe(0)
    expect(progressPercent(1, 3)).toBe(33)
    expect(progressPercent(44999, 45000)).toBe(99)
    expect(progressPercent(45000, 45000)).toBe(100)
    expect(progressPercent(50, 40)).toBe(100)
    expect(progressPercent(-1, 40)).toBe(0)
    expect(progressPercent(Number.NaN, 10)).toBe(0)
  })

  it('ancestorFolders lists the folders above a path, outermost first', () => {
    expect(ancestorFolders('a/b/c.md')).toEqual(['a', 'a/b'])
    expect(ancestorFolders('c.md')).toEqual([])
  })

  it('isSeedOnly is true for nothing or only the seeded guide', () => {
    expect(isSeedOnly([])).toBe(true)
    expect(isSeedOnly([{ name: SEEDED_GUIDE, dir: false }])).toBe(true)
    expect(isSeedOnly([{ name: SEEDED_GUIDE, dir: false }, { name: 'mine.md', dir: false }])).toBe(false)
    expect(isSeedOnly([{ name: 'docs', dir: true }])).toBe(false)
  })

  it('headingLeaf takes the last heading of a heading path', () => {
    expect(headingLeaf('所有権とは？ › 所有権規則')).toBe('所有権規則')
    expect(headingLeaf('Intro')).toBe('Intro')
    expect(headingLeaf('')).toBe('')
  })

  it('findHeading prefers an explicit {#id} anchor, then the text or slug', () => {
    const hs = [
      { anchor: '', text: 'Intro' },
      { anchor: 'basic-usage', text: '基本的な使い方' },
      { anchor: '', text: 'Basic usage' },
    ]
    expect(findHeading(hs, 'basic-usage')).toBe(1)
    expect(findHeading(hs, '基本的な使い方')).toBe(1)
    expect(findHeading(hs, 'intro')).toBe(0)
    expect(findHeading(hs, 'missing')).toBe(-1)
    expect(findHeading(hs, '  ')).toBe(-1)
  })

  it('headingMatches accepts the heading text or its anchor slug', () => {
    expect(slugify('Getting started!')).toBe('getting-started')
    expect(slugify('記憶 / Memory')).toBe('記憶--memory')
    expect(headingMatches('Getting  started', 'getting started')).toBe(true)
    expect(headingMatches('Getting started!', 'getting-started')).toBe(true)
    expect(headingMatches('記憶 / Memory', '記憶 / Memory')).toBe(true)
    expect(headingMatches('Other', 'getting-started')).toBe(false)
    expect(headingMatches('Anything', '')).toBe(false)
  })

  it('formatBytes picks a readable unit', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(3482)).toBe('3.4 KB')
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB')
  })

  it('indexChanged fires once a changed index has settled', () => {
    const base = { indexing: false, indexed: 10, lastIndexedAt: 't1', failed: [] as unknown[] }
    expect(indexChanged(base, { ...base })).toBe(false)
    expect(indexChanged({ ...base, indexing: true }, base)).toBe(true)
    expect(indexChanged(base, { ...base, lastIndexedAt: 't2' })).toBe(true)
    expect(indexChanged(base, { ...base, indexed: 11 })).toBe(true)
    expect(indexChanged(base, { ...base, failed: [{}] })).toBe(true)
    expect(indexChanged(base, { ...base, indexing: true, indexed: 11 })).toBe(false)
  })
})
