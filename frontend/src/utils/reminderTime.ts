// Local date-time and repeat helpers of the reminders panel.

/** The repeat choices of the form and the RRULE value each maps to. */
export const REPEAT_RULES = { none: '', daily: 'FREQ=DAILY', weekly: 'FREQ=WEEKLY', monthly: 'FREQ=MONTHLY' } as const
export type RepeatChoice = keyof typeof REPEAT_RULES

/** The form's choice for a stored RRULE value; a rule the form cannot show is 'custom'. */
export function repeatChoice(rrule: string): RepeatChoice | 'custom' {
  const r = rrule.trim().toUpperCase()
  for (const [k, v] of Object.entries(REPEAT_RULES)) if (v === r) return k as RepeatChoice
  return 'custom'
}

const pad = (n: number) => String(n).padStart(2, '0')

/** A Date as the value of <input type="datetime-local"> ("2026-12-01T09:00"), in local time. */
export function toLocalInput(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** A UTC RFC 3339 time as a datetime-local value; "" for "". */
export function isoToLocalInput(iso: string): string {
  if (!iso) return ''
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? '' : toLocalInput(d)
}

/** Reads a datetime-local value as a local time; null when it is not one. */
export function parseLocalInput(v: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(v.trim())
  if (!m) return null
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)))
  const date = new Date(y, mo - 1, d, h, mi, s)
  // Reject rolled-over values (2026-02-30 → March 2).
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d) return null
  return date
}

/** Validates the form: the key of the problem ('content' | 'due' | 'duePast'), or null. */
export function formProblem(content: string, due: string, now: Date): 'content' | 'due' | 'duePast' | null {
  if (!content.trim()) return 'content'
  const d = parseLocalInput(due)
  if (!d) return 'due'
  if (d.getTime() <= now.getTime()) return 'duePast'
  return null
}
