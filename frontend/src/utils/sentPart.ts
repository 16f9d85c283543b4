// The part of an attached document a message sent to the model (issue 25):
// a document too long for the model goes, when the user chooses so, as its
// first pages (a PDF) or its first characters. The history's chip and the
// document viewer both name that part.
import type { Attachment } from '@/api/types'

type Translate = (key: string, params: Record<string, unknown>) => string

/**
 * "Sent: pages 1–20 of 40", "Sent: page 1 of 40" or "Sent: the first 5,000
 * of 80,000 characters" for a document the message sent only in part; ""
 * when it went whole. num formats a count in the UI's language.
 */
export function sentPart(f: Pick<Attachment, 'pages' | 'chars' | 'sentPages' | 'sentChars'>, t: Translate, num: (n: number) => string): string {
  if (f.sentPages === 1) return t('attach.fit.sentPage', { total: num(f.pages) })
  if (f.sentPages) return t('attach.fit.sentPages', { fit: num(f.sentPages), total: num(f.pages) })
  if (f.sentChars) return t('attach.fit.sentChars', { fit: num(f.sentChars), total: num(f.chars) })
  return ''
}
