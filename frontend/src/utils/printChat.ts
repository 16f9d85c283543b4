// Print / PDF of a chat (issue 27) through the platform's print dialog:
// WebKitGTK shows GTK's, whose "Print to File" writes a PDF. What is
// printed is the chat's self-contained HTML export (rendered like the
// window, no script, its own Content-Security-Policy), shown in a hidden
// frame: the window's own layout (sidebar, message box) never reaches the
// paper, and no print stylesheet has to undo it.
//
// The frame is sandboxed without scripts (the export has none, and nothing
// in it may run); allow-same-origin lets the window call the frame's
// print(), allow-modals lets that print() open the dialog.

/** How long the frame stays after print() returns, in milliseconds (some
 * engines read the frame's document after print() has returned). */
export const PRINT_FRAME_LINGER_MS = 60_000

/** Shows html in a hidden frame and opens the print dialog for it. It
 * resolves once print() has returned (the dialog may still be open). */
export function printHTML(html: string, doc: Document = document): Promise<void> {
  // A frame from an earlier print goes first: one at a time.
  doc.querySelectorAll('iframe[data-print-frame]').forEach((f) => f.remove())
  const frame = doc.createElement('iframe')
  frame.dataset.printFrame = ''
  frame.setAttribute('sandbox', 'allow-same-origin allow-modals')
  frame.setAttribute('aria-hidden', 'true')
  frame.tabIndex = -1
  // Laid out at a page's width (so that it paginates as printed), but off
  // the screen and invisible.
  frame.style.cssText = 'position:fixed;left:-10000px;top:0;width:800px;height:600px;border:0;opacity:0;pointer-events:none'
  return new Promise((resolve, reject) => {
    frame.addEventListener(
      'load',
      () => {
        try {
          const w = frame.contentWindow
          if (!w) throw new Error('the print frame has no window')
          w.focus()
          w.print()
          resolve()
        } catch (e) {
          frame.remove()
          reject(e)
          return
        }
        setTimeout(() => frame.remove(), PRINT_FRAME_LINGER_MS)
      },
      { once: true },
    )
    frame.srcdoc = html
    doc.body.appendChild(frame)
  })
}
