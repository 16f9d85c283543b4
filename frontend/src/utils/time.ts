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

/** Time only for today, the date otherwise: for compact lists. */
export function formatShort(iso: string, locale: string, today: Date = new Date()): string {
  const d = parse(iso)
  if (!d) return ''
  const sameDay =
    d.getFullYear() === today.getFullYear() &&
    d.getMonth() === today.getMonth() &&
    d.getDate() === today.getDate()
  return sameDay
    ? d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString(locale, { month: 'short', day: 'numeric' })
}

/** Milliseconds since the epoch, 0 for a missing or bad time (for sorting). */
export function timeValue(iso: string): number {
  return parse(iso)?.getTime() ?? 0
}
