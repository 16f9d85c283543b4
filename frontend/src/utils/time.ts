// The backend sends RFC 3339 times in UTC; the UI shows them in the local zone.

function parse(iso: string): Date | null {
  if (!iso) return null
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? null : d
}

/** Date and time in the local zone, e.g. "2025/01/31 09:05". */
export function formatDateTime(iso: string, locale: string): string {
  const d = parse(iso)
  if (!d) return ''
  return d.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' })
}

/**
 * Time only for today, the month and day for another day of this year, and
 * the year too for another year (an imported 2024 chat must not read as
 * this year's): for compact lists.
 */
export function formatShort(iso: string, locale: string, today: Date = new Date()): string {
  const d = parse(iso)
  if (!d) return ''
  const sameYear = d.getFullYear() === today.getFullYear()
  const sameDay = sameYear && d.getMonth() === today.getMonth() && d.getDate() === today.getDate()
  if (sameDay) return d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
  return sameYear
    ? d.toLocaleDateString(locale, { month: 'short', day: 'numeric' })
    : d.toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' })
}

/** Milliseconds since the epoch, 0 for a missing or bad time (for sorting). */
export function timeValue(iso: string): number {
  return parse(iso)?.getTime() ?? 0
}
