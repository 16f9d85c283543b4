// Deciding whether a keydown in the message box should send.
//
// Enter confirms an IME conversion (Japanese, Chinese, Korean input) and must
// then never send. Browsers signal it differently:
//   - Chromium/Firefox: the confirming keydown has isComposing = true and
//     keyCode 229, and compositionend fires after it;
//   - WebKit (Safari, and WebKitGTK under Wails on Linux/macOS): compositionend
//     fires BEFORE the confirming keydown, whose isComposing is then false.
// So we track composition ourselves and also ignore an Enter that arrives
// within a short window after compositionend. The clock is injected for tests.

/** The parts of a KeyboardEvent the decision needs. */
export interface KeyLike {
  key: string
  keyCode?: number
  isComposing?: boolean
  shiftKey?: boolean
  altKey?: boolean
  ctrlKey?: boolean
  metaKey?: boolean
}

/** Milliseconds after compositionend during which Enter still belongs to the IME. */
export const COMPOSITION_GRACE_MS = 50

export interface ImeGuard {
  compositionStart(): void
  compositionEnd(): void
  /** True while an IME composition is in progress. */
  readonly composing: boolean
  /** True when the key is a plain Enter that should send the message. */
  shouldSend(e: KeyLike): boolean
  /** True when the key is an Enter the IME used (it must not insert a newline either). */
  isImeEnter(e: KeyLike): boolean
}

export function createImeGuard(now: () => number = () => Date.now()): ImeGuard {
  let composing = false
  let endedAt = -Infinity

  const imeEnter = (e: KeyLike): boolean =>
    e.key === 'Enter' &&
    (e.isComposing === true ||
      e.keyCode === 229 ||
      composing ||
      now() - endedAt < COMPOSITION_GRACE_MS)

  return {
    compositionStart() {
      composing = true
    },
    compositionEnd() {
      composing = false
      endedAt = now()
    },
    get composing() {
      return composing
    },
    isImeEnter: imeEnter,
    shouldSend(e) {
      if (e.key !== 'Enter') return false
      if (e.shiftKey || e.altKey) return false
      return !imeEnter(e)
    },
  }
}
