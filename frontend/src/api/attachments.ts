// The attachments adapter (AttachmentService, issue 25): files added to the
// message box are prepared by Go at once and wait there under an id until
// the message is sent with them (SendInput.attachmentIds) or removed.
import * as AttachmentService from '../../wailsjs/go/app/AttachmentService'
import type { app } from '../../wailsjs/go/models'
import { call } from './errors'
import type { ErrorInfo } from './errors'

/** A file added to the message box: taken (`id` set) or refused (`error` says why). */
export interface StagedAttachment extends Omit<app.StagedAttachment, 'error' | 'convertValues'> {
  error?: ErrorInfo | null
}

/** Whether a model takes images: 'yes', 'no' (warn before sending) or 'unknown'. */
export type TakesImages = 'yes' | 'no' | 'unknown'

/** Shows the system's file picker; the chosen files, each taken or refused (none: cancelled). */
export const choose = async (title: string): Promise<StagedAttachment[]> =>
  (await call(() => AttachmentService.Choose(title))) ?? []

/** Adds files by their absolute paths (dropped from a file manager). */
export const addFiles = async (paths: string[]): Promise<StagedAttachment[]> =>
  (await call(() => AttachmentService.AddFiles(paths))) ?? []

/** Adds a file the page holds (a pasted image), its bytes as base64. */
export const addData = (name: string, base64: string): Promise<StagedAttachment> =>
  call(() => AttachmentService.AddData(name, base64))

/**
 * Puts the files of a stored user message back in the message box (Remove
 * on an unanswered question gives them back with its text), each taken or
 * refused. Call it before the message is removed.
 */
export const restage = async (sessionId: string, messageId: number): Promise<StagedAttachment[]> =>
  (await call(() => AttachmentService.Restage(sessionId, messageId))) ?? []

/** Forgets files added but not sent. */
export const discard = (ids: string[]): Promise<void> => call(() => AttachmentService.Discard(ids))

/**
 * Adds a waiting document to the knowledge base instead of sending it (the
 * chat.attachmentTooLong offer); resolves to its path there. The file no
 * longer waits to be sent.
 */
export const addToKnowledge = (id: string): Promise<string> => call(() => AttachmentService.AddToKnowledge(id))

/** A stored attachment's bytes as a data URL (by its SHA-256). */
export const dataURL = (sha256: string): Promise<string> => call(() => AttachmentService.DataURL(sha256))

/** A stored document's text as it went to the model (by its SHA-256): what its chip in the history opens. */
export const text = (sha256: string): Promise<string> => call(() => AttachmentService.Text(sha256))

/** Whether `model` ("provider/model") is known to take images. */
export async function takesImages(model: string): Promise<TakesImages> {
  const v = await call(() => AttachmentService.TakesImages(model))
  return v === 'yes' || v === 'no' ? v : 'unknown'
}

/**
 * A model's image setting (MODEL_IMAGES, issue 25): `override` is the
 * user's 'yes' or 'no' ('' = automatic), `table` the vision table's answer,
 * `effective` what the window and the send follow.
 */
export interface ImageSetting {
  model: string
  override: '' | 'yes' | 'no'
  table: TakesImages
  effective: TakesImages
}

function toSetting(v: app.ImageSetting): ImageSetting {
  const t = (x: string): TakesImages => (x === 'yes' || x === 'no' ? x : 'unknown')
  return {
    model: v.model,
    override: v.override === 'yes' || v.override === 'no' ? v.override : '',
    table: t(v.table),
    effective: t(v.effective),
  }
}

/** `model`'s image setting and what the table says. */
export const imageSetting = async (model: string): Promise<ImageSetting> =>
  toSetting(await call(() => AttachmentService.ImageSetting(model)))

/** Every model with an image setting, by model id. */
export const imageOverrides = async (): Promise<ImageSetting[]> =>
  ((await call(() => AttachmentService.ImageOverrides())) ?? []).map(toSetting)

/**
 * Sets whether `model` takes images ('' = automatic, the setting removed);
 * saved at once. A bad model or value is refused (config.invalidValue) and
 * nothing changes.
 */
export const setTakesImages = async (model: string, value: '' | 'yes' | 'no'): Promise<ImageSetting> =>
  toSetting(await call(() => AttachmentService.SetTakesImages(model, value)))

/** Reads a File (a pasted or dropped image) as standard base64, without the data: prefix. */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader()
    r.onload = () => {
      const s = String(r.result ?? '')
      resolve(s.slice(s.indexOf(',') + 1))
    }
    r.onerror = () => reject(r.error ?? new Error('read failed'))
    r.readAsDataURL(file)
  })
}
