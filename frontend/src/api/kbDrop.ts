// The knowledge-base drop adapter (KBService.ImportDropped): files and
// folders dropped on the Knowledge panel are copied into the knowledge base;
// progress arrives on "kb:drop:<dropId>" while the call runs.
import * as KBService from '../../wailsjs/go/app/KBService'
import type { kb } from '../../wailsjs/go/models'
import { EventsOn } from '../../wailsjs/runtime/runtime'
import { KB_DROP_PREFIX, type KBDropProgress } from './events'
import { call } from './errors'
import { inMessageZone, onFileDropIn } from './fileDrop'

/** What a drop did (Go's kb.DropReport). */
export type DropReport = kb.DropReport
/** One dropped file that was not copied (Go's kb.DropSkip). */
export type DropSkip = kb.DropSkip

/** Files copied so far of the total planned (Go: app.KBDropProgress). */
export type DropProgress = KBDropProgress

let seq = 0

/** Copies `paths` (absolute, as dropped) into the knowledge base. */
export async function importDropped(paths: string[], onProgress?: (p: DropProgress) => void): Promise<DropReport> {
  const dropId = `${Date.now().toString(36)}-${++seq}`
  const off = onProgress
    ? EventsOn(KB_DROP_PREFIX + dropId, (v: unknown) => {
        const p = v as Partial<DropProgress> | null
        if (p && typeof p.done === 'number' && typeof p.total === 'number') onProgress({ done: p.done, total: p.total })
      })
    : null
  try {
    const r = await call(() => KBService.ImportDropped(dropId, paths))
    return {
      copied: r?.copied ?? [],
      skipped: r?.skipped ?? [],
      skippedMore: r?.skippedMore ?? 0,
      bytes: r?.bytes ?? 0,
    } as DropReport
  } finally {
    off?.()
  }
}

/** Shows the system's file picker for documents to add; the chosen absolute paths (none: cancelled). */
export const chooseFiles = async (title: string): Promise<string[]> =>
  (await call(() => KBService.ChooseFiles(title))) ?? []

/**
 * Listens for files dropped on an element styled `--wails-drop-target: drop`
 * (the window's file drop, options.DragAndDrop.EnableFileDrop) anywhere but
 * the message box (which takes its own, as attachments: api/fileDrop.ts);
 * returns the function that stops listening.
 */
export function onFileDrop(handler: (paths: string[]) => void): () => void {
  return onFileDropIn((el) => !inMessageZone(el), handler)
}
