// Accessible names as a screen reader computes them (the parts our components use).
import type { VueWrapper } from '@vue/test-utils'
import { expect } from 'vitest'

/** The accessible name of a form control, as a screen reader finds it (aria-label, aria-labelledby, <label>). */
export function nameOf(el: HTMLElement): string {
  const aria = el.getAttribute('aria-label')?.trim()
  if (aria) return aria
  const by = el.getAttribute('aria-labelledby')
  if (by) return by.split(/\s+/).map((id) => document.getElementById(id)?.textContent?.trim() ?? '').join(' ').trim()
  const labels = (el as HTMLInputElement).labels
  if (labels && labels.length) return Array.from(labels).map((l) => l.textContent?.trim() ?? '').join(' ').trim()
  return ''
}

/** The text a button is announced with: aria-label, else its text without the aria-hidden glyphs. */
export function buttonName(el: HTMLElement): string {
  const aria = el.getAttribute('aria-label')?.trim()
  if (aria) return aria
  const copy = el.cloneNode(true) as HTMLElement
  copy.querySelectorAll('[aria-hidden="true"]').forEach((n) => n.remove())
  return copy.textContent?.trim() ?? ''
}

/** Every input, textarea and select has a name; every button a name with a word in it (not just ✕ or ⋯). */
export function expectAllNamed(w: VueWrapper) {
  const root = w.element as HTMLElement
  const controls = root.querySelectorAll<HTMLElement>('input, textarea, select')
  for (const c of Array.from(controls)) expect(nameOf(c), c.outerHTML).not.toBe('')
  const buttons = root.querySelectorAll<HTMLElement>('button')
  for (const b of Array.from(buttons)) expect(buttonName(b), b.outerHTML).toMatch(/[\p{L}\p{N}]{2,}/u)
  return { controls: controls.length, buttons: buttons.length }
}
