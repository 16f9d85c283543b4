// Wails v2 rejects a bound method's promise with the Go error's text (a plain
// string). Everything above the adapters sees real Error objects instead.

/** Turns any rejection value into an Error with a readable message. */
export function toError(reason: unknown): Error {
  if (reason instanceof Error) return reason
  if (typeof reason === 'string') return new Error(reason || 'unknown error')
  if (reason && typeof reason === 'object' && 'message' in reason) {
    const msg = (reason as { message: unknown }).message
    if (typeof msg === 'string' && msg) return new Error(msg)
  }
  try {
    return new Error(JSON.stringify(reason) ?? String(reason))
  } catch {
    return new Error(String(reason))
  }
}

/** Runs a binding call and rethrows its rejection as an Error. */
export async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (reason) {
    throw toError(reason)
  }
}

/** The message of any thrown value, for toasts. */
export function errorMessage(reason: unknown): string {
  return toError(reason).message
}
