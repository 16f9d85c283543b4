import { describe, expect, it } from 'vitest'
import {
  computeDrop, dropSide, gatherSections, groupPages, isContiguous, sectionNames,
  type DropResult, type DropTarget, type OrderedPage,
} from '@/utils/noteOrder'

// Pages written as "id:section" ("" = ungrouped), in tab order.
const P = (spec: string): OrderedPage[] =>
  spec.split(' ').map((s) => {
    const [id, section = ''] = s.split(':')
    return { id: Number(id), section }
  })

// 1 | A: 2 3 4 | 5 | B: 6 7
const pages = P('1 2:A 3:A 4:A 5 6:B 7:B')

const before = (pageId: number): DropTarget => ({ kind: 'before', pageId })
const after = (pageId: number): DropTarget => ({ kind: 'after', pageId })
const END: DropTarget = { kind: 'end' }

/** The pages as they are after the drop: in the new order, the dragged one in its new section. */
function applied(list: OrderedPage[], dragged: number, r: DropResult): OrderedPage[] {
  return r.order.map((id) => {
    const p = list.find((x) => x.id === id)!
    return id === dragged ? { id, section: r.section } : p
  })
}

function expectValid(list: OrderedPage[], dragged: number, r: DropResult | null) {
  expect(r).not.toBeNull()
  expect([...r!.order].sort((a, b) => a - b)).toEqual(list.map((p) => p.id).sort((a, b) => a - b))
  expect(isContiguous(applied(list, dragged, r!))).toBe(true)
}

describe('computeDrop', () => {
  it.each([
    ['the first before the last of its section', 4, before(2), [1, 4, 2, 3, 5, 6, 7], 'A'],
    ['a page after the last of its section', 2, after(4), [1, 3, 4, 2, 5, 6, 7], 'A'],
    ['a page one step right', 2, after(3), [1, 3, 2, 4, 5, 6, 7], 'A'],
    ['a page one step left', 4, before(3), [1, 2, 4, 3, 5, 6, 7], 'A'],
  ])('moves within a section: %s', (_, dragged, target, order, section) => {
    const r = computeDrop(pages, dragged, target)
    expect(r).toEqual({ order, section })
    expectValid(pages, dragged, r)
  })

  it.each([
    ['into the middle of another section', 6, before(3), [1, 2, 6, 3, 4, 5, 7], 'A'],
    ['after the last tab of another section', 2, after(7), [1, 3, 4, 5, 6, 7, 2], 'B'],
    ['before the first tab of another section', 4, before(6), [1, 2, 3, 5, 4, 6, 7], 'B'],
    ['after the last tab of a group that an ungrouped tab follows', 6, after(4), [1, 2, 3, 4, 6, 5, 7], 'A'],
  ])('moves across sections and takes the target section: %s', (_, dragged, target, order, section) => {
    const r = computeDrop(pages, dragged, target)
    expect(r).toEqual({ order, section })
    expectValid(pages, dragged, r)
  })

  it('after the last tab of a group directly followed by another group stays contiguous', () => {
    const two = P('1:A 2:A 3:B 4:B')
    expect(computeDrop(two, 4, after(2))).toEqual({ order: [1, 2, 4, 3], section: 'A' })
    expect(computeDrop(two, 1, after(2))).toEqual({ order: [2, 1, 3, 4], section: 'A' })
    expect(computeDrop(two, 3, before(2))).toEqual({ order: [1, 3, 2, 4], section: 'A' })
    // Same place, new section: only the section changes.
    expect(computeDrop(two, 2, before(3))).toEqual({ order: [1, 2, 3, 4], section: 'B' })
    for (const [d, t] of [[4, after(2)], [1, after(2)], [3, before(2)], [2, before(3)]] as const) {
      expectValid(two, d, computeDrop(two, d, t))
    }
  })

  it.each([
    ['before an ungrouped tab between groups', 3, before(5), [1, 2, 4, 3, 5, 6, 7]],
    ['after the first, ungrouped tab', 7, after(1), [1, 7, 2, 3, 4, 5, 6]],
    ['before the first, ungrouped tab', 2, before(1), [2, 1, 3, 4, 5, 6, 7]],
    ['after an ungrouped tab, ungrouped itself', 1, after(5), [2, 3, 4, 5, 1, 6, 7]],
  ])('dropping onto an ungrouped tab ungroups the page: %s', (_, dragged, target, order) => {
    const r = computeDrop(pages, dragged, target)
    expect(r).toEqual({ order, section: '' })
    expectValid(pages, dragged, r)
  })

  it.each([
    ['a page of a section', 3, [1, 2, 4, 5, 6, 7, 3]],
    ['the first, ungrouped page', 1, [2, 3, 4, 5, 6, 7, 1]],
    ['the last page, which only loses its section', 7, [1, 2, 3, 4, 5, 6, 7]],
  ])('the end zone ungroups and appends: %s', (_, dragged, order) => {
    const r = computeDrop(pages, dragged, END)
    expect(r).toEqual({ order, section: '' })
    expectValid(pages, dragged, r)
  })

  it('the end zone changes nothing for the last page when it is already ungrouped', () => {
    expect(computeDrop(P('1:A 2'), 2, END)).toBeNull()
    expect(computeDrop(P('1:A 2'), 1, END)).toEqual({ order: [2, 1], section: '' })
  })

  it('dropping onto itself is a no-op', () => {
    for (const p of pages) {
      expect(computeDrop(pages, p.id, before(p.id))).toBeNull()
      expect(computeDrop(pages, p.id, after(p.id))).toBeNull()
    }
  })

  it('dropping back into the same place is a no-op', () => {
    expect(computeDrop(pages, 3, after(2))).toBeNull()
    expect(computeDrop(pages, 3, before(4))).toBeNull()
    expect(computeDrop(P('1 2 3:A'), 2, after(1))).toBeNull() // ungrouped next to ungrouped
    expect(computeDrop(P('1 2 3:A'), 1, before(2))).toBeNull()
  })

  it('moves an ungrouped page between groups', () => {
    expect(computeDrop(pages, 5, before(1))).toEqual({ order: [5, 1, 2, 3, 4, 6, 7], section: '' })
    expect(computeDrop(pages, 1, before(5))).toEqual({ order: [2, 3, 4, 1, 5, 6, 7], section: '' })
  })

  it('the same place next to a tab of another section only changes the section', () => {
    expect(computeDrop(pages, 1, before(2))).toEqual({ order: [1, 2, 3, 4, 5, 6, 7], section: 'A' })
    expect(computeDrop(pages, 5, after(4))).toEqual({ order: [1, 2, 3, 4, 5, 6, 7], section: 'A' })
    expect(computeDrop(pages, 5, before(6))).toEqual({ order: [1, 2, 3, 4, 5, 6, 7], section: 'B' })

  })

  it('moves to the first and the last position', () => {
    expect(computeDrop(pages, 7, before(1))).toEqual({ order: [7, 1, 2, 3, 4, 5, 6], section: '' })
    expect(computeDrop(pages, 1, after(7))).toEqual({ order: [2, 3, 4, 5, 6, 7, 1], section: 'B' })
    expect(computeDrop(pages, 6, before(1))).toEqual({ order: [6, 1, 2, 3, 4, 5, 7], section: '' })
  })

  it('handles a single page', () => {
    expect(computeDrop(P('1:A'), 1, before(1))).toBeNull()
    expect(computeDrop(P('1:A'), 1, after(1))).toBeNull()
    expect(computeDrop(P('1:A'), 1, END)).toEqual({ order: [1], section: '' })
    expect(computeDrop(P('1'), 1, END)).toBeNull()
  })

  it('ignores unknown pages', () => {
    expect(computeDrop(pages, 99, before(1))).toBeNull()
    expect(computeDrop(pages, 1, before(99))).toBeNull()
    expect(computeDrop([], 1, END)).toBeNull()
  })

  it('repairs a list whose sections were already split', () => {
    const broken = P('1:A 2 3:A 4')
    const r = computeDrop(broken, 4, before(2))
    expect(r).toEqual({ order: [1, 3, 4, 2], section: '' })
    expectValid(broken, 4, r)
  })

  // Every page dropped on every spot of several layouts: a complete,
  // contiguous order that puts the page right next to its target.
  const layouts = [
    pages,
    P('1:A 2:A 3:B 4:B'),
    P('1 2 3'),
    P('1:A 2:B 3:C'),
    P('1:X 2 3:Y 4:Y 5 6'),
    P('1:A'),
    P('1 2:A 3:A 4:A 5:A 6 7:B 8:C 9:C 10'),
  ]
  it.each(layouts.map((l, i) => [i, l] as const))('keeps every result valid (layout %i)', (_, list) => {
    for (const d of list) {
      const targets: DropTarget[] = [END, ...list.flatMap((p) => [before(p.id), after(p.id)])]
      for (const target of targets) {
        const r = computeDrop(list, d.id, target)
        if (r === null) {
          // A no-op: onto itself, or the page is already there with that section.
          if (target.kind !== 'end' && target.pageId === d.id) continue
          const t = target.kind === 'end' ? null : list.find((p) => p.id === target.pageId)!
          expect(d.section).toBe(t ? t.section : '')
          continue
        }
        expectValid(list, d.id, r)
        const at = r.order.indexOf(d.id)
        if (target.kind === 'end') {
          expect(at).toBe(list.length - 1)
          expect(r.section).toBe('')
        } else {
          const t = list.find((p) => p.id === target.pageId)!
          expect(r.section).toBe(t.section)
          expect(r.order[target.kind === 'before' ? at + 1 : at - 1]).toBe(t.id)
        }
        const same = r.order.every((id, k) => id === list[k].id) && r.section === d.section
        expect(same).toBe(false)
      }
    }
  })
})

describe('grouping', () => {
  it('groups adjacent pages of a section; ungrouped runs have no name', () => {
    expect(groupPages(pages).map((g) => [g.section, g.pages.map((p) => p.id)])).toEqual([
      ['', [1]], ['A', [2, 3, 4]], ['', [5]], ['B', [6, 7]],
    ])
    expect(groupPages([])).toEqual([])
    expect(sectionNames(pages)).toEqual(['A', 'B'])
  })

  it('checks and repairs contiguity', () => {
    expect(isContiguous(pages)).toBe(true)
    expect(isContiguous(P('1:A 2 3:A'))).toBe(false)
    expect(isContiguous(P('1 2 3'))).toBe(true)
    expect(gatherSections(P('1:A 2 3:A 4:B 5:A')).map((p) => p.id)).toEqual([1, 3, 5, 2, 4])
    expect(gatherSections(pages)).toEqual(pages)
  })

  it('picks the side of a tab from the pointer', () => {
    expect(dropSide(10, 0, 100)).toBe('before')
    expect(dropSide(49, 0, 100)).toBe('before')
    expect(dropSide(50, 0, 100)).toBe('after')
    expect(dropSide(99, 0, 100)).toBe('after')
  })
})
