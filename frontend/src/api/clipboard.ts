// Copying text: the Wails runtime's clipboard (works in the native window
// whatever the web view's permissions), the web clipboard otherwise.
import { ClipboardSetText } from '../../wailsjs/runtime/runtime'

/** Puts text on the clipboard; rejects with an Error when neither clipboard took it. */
export async function copyText(text: string): Promise<void> {
  try {
    if (await ClipboardSetText(text)) return
  } catch {
    // not in the native window (tests, a browser): try the web clipboard
  }
  if (!navigator.clipboard) throw new Error('no clipboard')
  await navigator.clipboard.writeText(text)
}
