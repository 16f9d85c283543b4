import * as Sessions from '../../wailsjs/go/app/SessionService'
import { call } from './errors'
import type { ImportResult, Message, Session } from './types'

export const list = (): Promise<Session[]> => call(async () => (await Sessions.List()) ?? [])
export const create = (model: string): Promise<Session> => call(() => Sessions.Create(model))
export const rename = (id: string, title: string): Promise<Session> =>
  call(() => Sessions.Rename(id, title))
export const setModel = (id: string, model: string): Promise<Session> =>
  call(() => Sessions.SetModel(id, model))
export const remove = (id: string): Promise<void> => call(() => Sessions.Delete(id))
export const messages = (id: string): Promise<Message[]> =>
  call(async () => (await Sessions.Messages(id)) ?? [])
/** Switches to the version through messageId; returns the newly selected branch's messages. */
export const selectBranch = (id: string, messageId: number): Promise<Message[]> =>
  call(async () => (await Sessions.SelectBranch(id, messageId)) ?? [])

/** Saves the session to a file the user picks; "" when the dialog was cancelled. */
export const exportToFile = (id: string): Promise<string> => call(() => Sessions.ExportToFile(id))

/** Imports a session from a file the user picks; null when the dialog was cancelled. */
export async function importFromFile(): Promise<ImportResult | null> {
  const res = await call(() => Sessions.ImportFromFile())
  return res && res.session && res.session.id ? res : null
}
