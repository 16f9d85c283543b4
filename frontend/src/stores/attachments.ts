import { defineStore } from 'pinia'
import { ref } from 'vue'
import * as api from '@/api/attachments'
import type { ImageSetting, StagedAttachment, TakesImages } from '@/api/attachments'
import { AppError } from '@/api/errors'
import { useToastStore } from './toasts'

/** How many files one message may carry (Go's attach.MaxPerMessage). */
export const MAX_ATTACHMENTS = 10

/**
 * The files added to the message box (issue 25), one list per chat like the
 * drafts (the new chat's under ''). A refused file is never listed: its
 * reason is shown as a toast, and the typed text is not touched.
 */
export const useAttachmentStore = defineStore('attachments', () => {
  const toasts = useToastStore()
  /** Staged files by chat ('' = the new chat). */
  const byChat = ref<Record<string, StagedAttachment[]>>({})
  /** Files being read or prepared (the chips show a spinner). */
  const busy = ref(0)
  const vision = new Map<string, ImageSetting>()

  const key = (sessionId: string | null | undefined) => sessionId ?? ''
  const list = (sessionId: string | null | undefined): StagedAttachment[] => byChat.value[key(sessionId)] ?? []

  /**
   * Lists what was taken (after the files already there) and shows why the
   * rest was refused. Files past MAX_ATTACHMENTS are refused here, as they
   * are added (Go lets them go), not when Send is pressed: twelve dropped
   * files made twelve chips and a refused Send (a new-user try).
   */
  function accept(sessionId: string | null | undefined, staged: StagedAttachment[]) {
    const taken = staged.filter((s) => s.id && !s.error)
    for (const s of staged) if (s.error || !s.id) toasts.error(new AppError(s.error ?? { code: '', params: {}, message: s.name }))
    const had = list(sessionId).length
    const kept = taken.slice(0, Math.max(0, MAX_ATTACHMENTS - had))
    const over = taken.slice(kept.length)
    if (over.length) {
      void api.discard(over.map((s) => s.id)).catch(() => {})
      const names = over.slice(0, 3).map((s) => s.name).join(', ') + (over.length > 3 ? ', …' : '')
      const params = { max: MAX_ATTACHMENTS, refused: over.length, names }
      toasts.error(new AppError({ code: 'attach.tooManyStaged', params, message: `at most ${MAX_ATTACHMENTS} files: ${over.length} not added (${names})` }))
    }
    if (!kept.length) return
    byChat.value = { ...byChat.value, [key(sessionId)]: [...list(sessionId), ...kept] }
  }

  async function run(sessionId: string | null | undefined, work: () => Promise<StagedAttachment[]>) {
    busy.value++
    try {
      accept(sessionId, await work())
    } catch (e) {
      toasts.error(e)
    } finally {
      busy.value--
    }
  }

  /** The paperclip: the system's file picker. */
  const choose = (sessionId: string | null | undefined, title: string) => run(sessionId, () => api.choose(title))

  /** Files dropped on the message box from a file manager (absolute paths). */
  const addPaths = (sessionId: string | null | undefined, paths: string[]) =>
    paths.length ? run(sessionId, () => api.addFiles(paths)) : Promise.resolve()

  /** Files the page holds: an image pasted from the clipboard, a file dropped from a browser. */
  const addBlobs = (sessionId: string | null | undefined, files: File[]) =>
    files.length
      ? run(sessionId, async () => {
          const out: StagedAttachment[] = []
          for (const f of files) out.push(await api.addData(f.name || pastedName(f.type), await api.fileToBase64(f)))
          return out
        })
      : Promise.resolve()

  /** The chip's ×: the file is forgotten. */
  function remove(sessionId: string | null | undefined, id: string) {
    byChat.value = { ...byChat.value, [key(sessionId)]: list(sessionId).filter((s) => s.id !== id) }
    void api.discard([id]).catch(() => {})
  }

  /** Takes the chat's files for a message being sent (restore puts them back if Send fails). */
  function take(sessionId: string | null | undefined): StagedAttachment[] {
    const out = list(sessionId)
    if (out.length) {
      const next = { ...byChat.value }
      delete next[key(sessionId)]
      byChat.value = next
    }
    return out
  }

  /** Takes files off the chat's box that Go no longer holds (added to the knowledge base). */
  function forget(sessionId: string | null | undefined, ids: string[]) {
    byChat.value = { ...byChat.value, [key(sessionId)]: list(sessionId).filter((s) => !ids.includes(s.id)) }
  }

  /** Puts files back in the chat's box (a Send that failed keeps them waiting in Go). */
  function restore(sessionId: string | null | undefined, files: StagedAttachment[]) {
    if (files.length) byChat.value = { ...byChat.value, [key(sessionId)]: [...files, ...list(sessionId)] }
  }


  /** Whether the model takes images (asked once per model, until a setting changes). */
  async function takesImages(model: string): Promise<TakesImages> {
    return (await imageSetting(model)).effective
  }

  /**
   * The model's image setting and the table's answer (asked once per model
   * until setTakesImages changes one); unknown when Go cannot say.
   */
  async function imageSetting(model: string): Promise<ImageSetting> {
    const none: ImageSetting = { model, override: '', table: 'unknown', effective: 'unknown' }
    if (!model) return none
    const known = vision.get(model)
    if (known) return known
    try {
      const v = await api.imageSetting(model)
      vision.set(model, v)
      return v
    } catch {
      return none
    }
  }

  /** Bumped when an image setting changes, so views ask again. */
  const visionTick = ref(0)

  /** Sets whether `model` takes images ('' = automatic); throws the coded error of a refused input. */
  async function setTakesImages(model: string, value: '' | 'yes' | 'no'): Promise<ImageSetting> {
    const v = await api.setTakesImages(model, value)
    vision.clear()
    vision.set(v.model, v)
    visionTick.value++
    return v
  }

  return {
    byChat, busy, list, accept, choose, addPaths, addBlobs, remove, take, restore, forget,
    takesImages, imageSetting, setTakesImages, visionTick,
  }
})

/** The name a pasted image gets (the clipboard gives none): pasted-image.png. */
export function pastedName(mime: string): string {
  const ext = mime.startsWith('image/') ? mime.slice(6).replace('jpeg', 'jpg').replace(/[^a-z0-9]/g, '') : 'bin'
  return `pasted-image.${ext || 'png'}`
}
