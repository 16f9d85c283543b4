import { describe, expect, it } from 'vitest'
import { formatShort } from '@/utils/time'

// The chat list's dates: a time today, a day this year, and the year with it
// for another year, so an imported old chat does not read as this year's.
describe('formatShort', () => {
  const today = new Date(2026, 10, 30, 12, 0)
  it('shows the time for today', () => {
    expect(formatShort(new Date(2026, 10, 30, 9, 5).toISOString(), 'en-US', today)).toMatch(/09:05/)
  })
  it('shows month and day for another day of this year, without the year', () => {
    const s = formatShort(new Date(2026, 4, 1, 9, 0).toISOString(), 'en-US', today)
    expect(s).toBe('May 1')
  })
  it('adds the year for another year, in Japanese too', () => {
    expect(formatShort(new Date(2024, 4, 1, 9, 0).toISOString(), 'en-US', today)).toBe('May 1, 2024')
    expect(formatShort(new Date(2024, 4, 1, 9, 0).toISOString(), 'ja-JP', today)).toBe('2024年5月1日')
  })
  it('is empty for a missing or bad time', () => {
    expect(formatShort('', 'en-US', today)).toBe('')
    expect(formatShort('not a time', 'en-US', today)).toBe('')
  })
})
