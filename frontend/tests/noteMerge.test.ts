import { describe, expect, it } from 'vitest'
import {
  conflictCount,
  hasConflictMarkers,
  mergeNote,
  resolveConflicts,
  withConflictMarkers,
  type MergeChunk,
} from '@/utils/noteMerge'

const base = '# 買い物\n- 牛乳\n- 卵\n\n## メモ\n週末に行く'

describe('mergeNote', () => {
  it('merges a draft edit with an append made meanwhile, keeping both', () => {
    const mine = base.replace('- 卵', '- 卵 10個')
    const theirs = base + '\n- AI: パンも忘れずに'
    const m = mergeNote(base, mine, theirs)
    expect(m).toEqual({ clean: true, text: '# 買い物\n- 牛乳\n- 卵 10個\n\n## メモ\n週末に行く\n- AI: パンも忘れずに' })
  })

  it('merges edits of different lines from both sides', () => {
    const mine = base.replace('# 買い物', '# 買い物リスト')
    const theirs = base.replace('週末に行く', '土曜日に行く')
    const m = mergeNote(base, mine, theirs)
    expect(m).toEqual({ clean: true, text: '# 買い物リスト\n- 牛乳\n- 卵\n\n## メモ\n土曜日に行く' })
  })

  it('takes the side that changed when only one did', () => {
    expect(mergeNote(base, base, base + '\nx')).toEqual({ clean: true, text: base + '\nx' })
    expect(mergeNote(base, base + '\ny', base)).toEqual({ clean: true, text: base + '\ny' })
    expect(mergeNote(base, 'same', 'same')).toEqual({ clean: true, text: 'same' })
  })

  it('reports a true conflict with both sides when the same line changed', () => {
    const mine = base.replace('- 牛乳', '- 豆乳')
    const theirs = base.replace('- 牛乳', '- 低脂肪乳')
    const m = mergeNote(base, mine, theirs)
    expect(m.clean).toBe(false)
    if (m.clean) return
    expect(conflictCount(m.chunks)).toBe(1)
    expect(m.chunks).toContainEqual({ kind: 'conflict', mine: ['- 豆乳'], base: ['- 牛乳'], theirs: ['- 低脂肪乳'] })
    expect(m.chunks[0]).toEqual({ kind: 'ok', lines: ['# 買い物'] })
  })

  it('keeps both when the draft and the AI added lines at the same place (the AI’s append last)', () => {
    expect(mergeNote(base, base + '\n私の行\n二行目', base + '\nAIの行')).toEqual({
      clean: true,
      text: base + '\n私の行\n二行目\nAIの行',
    })
    // The same line added by both is kept once.
    expect(mergeNote(base, base + '\n同じ行', base + '\n同じ行')).toEqual({ clean: true, text: base + '\n同じ行' })
  })

  it('merges an edit of the last line with lines appended after it', () => {
    const m = mergeNote(base, base.replace('週末に行く', '週末に行く（雨なら延期）'), base + '\n- AI: 傘を持つ')
    expect(m).toEqual({ clean: true, text: base.replace('週末に行く', '週末に行く（雨なら延期）') + '\n- AI: 傘を持つ' })
    // …and lines the AI put before the line I edited.
    const m2 = mergeNote('a\nb', 'a\nB', 'a\nnew\nb')
    expect(m2).toEqual({ clean: true, text: 'a\nnew\nB' })
  })

  it('keeps the other side’s appended lines when the draft deleted the line before them', () => {
    expect(mergeNote('a\nb', 'a', 'a\nb\nc')).toEqual({ clean: true, text: 'a\nc' })
  })

  it('reports a conflict when both rewrote the same lines, even with lines added around', () => {
    const m = mergeNote('a\nb\nc', 'a\nB1\nc', 'a\nB2\nextra\nc')
    expect(m.clean).toBe(false)
    if (m.clean) return
    expect(m.chunks).toContainEqual({ kind: 'conflict', mine: ['B1'], base: ['b'], theirs: ['B2', 'extra'] })
  })
})

describe('settling conflicts', () => {
  const chunks: MergeChunk[] = [
    { kind: 'ok', lines: ['a'] },
    { kind: 'conflict', mine: ['m1', 'm2'], base: ['b'], theirs: ['t'] },
    { kind: 'ok', lines: ['z'] },
  ]

  it('keeps my lines, theirs, or both, and always the agreed lines', () => {
    expect(resolveConflicts(chunks, 'mine')).toBe('a\nm1\nm2\nz')
    expect(resolveConflicts(chunks, 'theirs')).toBe('a\nt\nz')
    expect(resolveConflicts(chunks, 'both')).toBe('a\nm1\nm2\nt\nz')
  })

  it('writes both sides between labelled markers for editing by hand', () => {
    const text = withConflictMarkers(chunks, { mine: '自分', theirs: '保存済み' })
    expect(text).toBe('a\n<<<<<<< 自分\nm1\nm2\n=======\nt\n>>>>>>> 保存済み\nz')
    expect(hasConflictMarkers(text)).toBe(true)
    expect(hasConflictMarkers('a\nm1\nt\nz')).toBe(false)
    expect(hasConflictMarkers('=======\nheading underline')).toBe(false)
  })
})
