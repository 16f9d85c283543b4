import { describe, expect, it } from 'vitest'
import { ERROR_CODES } from '@/api/errorCodes'
import en from '@/locales/en'
import ja from '@/locales/ja'

// Every code the backend can send (generated from backend/apperr) has a
// message in both locales, with the same placeholders, all of them params
// the backend fills.

function message(messages: unknown, code: string): unknown {
  let v: unknown = (messages as { errors?: { code?: unknown } }).errors?.code
  for (const part of code.split('.')) {
    if (!v || typeof v !== 'object') return undefined
    v = (v as Record<string, unknown>)[part]
  }
  return v
}

const placeholders = (s: string) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort()

describe('error code messages', () => {
  const codes = Object.entries(ERROR_CODES)

  it('lists the backend codes', () => {
    expect(codes.length).toBeGreaterThan(50)
  })

  it.each(codes)('%s has a message in ja and en with the same params', (code, spec) => {
    const inJa = message(ja, code)
    const inEn = message(en, code)
    expect(typeof inJa, `ja errors.code.${code}`).toBe('string')
    expect(typeof inEn, `en errors.code.${code}`).toBe('string')
    expect(placeholders(inJa as string)).toEqual(placeholders(inEn as string))
    for (const p of placeholders(inEn as string)) expect(spec.params, `${code} fills {${p}}`).toContain(p)
  })
})
