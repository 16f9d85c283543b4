// The assistants adapter (app.AssistantService, issue 26): the user's
// assistants and each chat's own settings. Nothing else imports the
// bindings; rejections become Errors (api/errors.ts).
import * as Service from '../../wailsjs/go/app/AssistantService'
import { assistant, store } from '../../wailsjs/go/models'
import type { app } from '../../wailsjs/go/models'
import { call } from './errors'

/** One assistant (Go's assistant.Assistant). */
export type Assistant = assistant.Assistant
/** What the user edits of an assistant (Go's assistant.Draft). */
export type AssistantDraft = Omit<assistant.Draft, 'convertValues'>
/** A chat's own settings (Go's store.ChatSettings); absent = the default. */
export type ChatSettings = Omit<store.ChatSettings, 'convertValues'>
/** A chat's settings with its assistant and the parameters its model ignores. */
export type ChatSettingsView = app.ChatSettingsView

/** The context layers a chat can switch off, in context order. */
export const SWITCHABLE_LAYERS = ['knowledge', 'notes', 'kb', 'memory'] as const

const draft = (d: AssistantDraft) => assistant.Draft.createFrom(d)
const settings = (s: ChatSettings) => store.ChatSettings.createFrom(s)

export const list = (): Promise<Assistant[]> => call(async () => (await Service.List()) ?? [])
export const create = (d: AssistantDraft): Promise<Assistant> => call(() => Service.Create(draft(d)))
export const update = (id: number, d: AssistantDraft): Promise<Assistant> => call(() => Service.Update(id, draft(d)))
export const duplicate = (id: number, suffix: string): Promise<Assistant> => call(() => Service.Duplicate(id, suffix))
export const remove = (id: number): Promise<void> => call(() => Service.Delete(id))
export const reorder = (ids: number[]): Promise<Assistant[]> => call(async () => (await Service.Reorder(ids)) ?? [])
/** Saves assistants (all when ids is empty) to a file the user picks; "" when cancelled. */
export const exportToFile = (ids: number[]): Promise<string> => call(() => Service.ExportToFile(ids))
/** Adds the assistants of a file the user picks; [] when cancelled. */
export const importFromFile = (): Promise<Assistant[]> =>
  call(async () => (await Service.ImportFromFile())?.assistants ?? [])

export const chatSettings = (sessionId: string): Promise<ChatSettingsView> =>
  call(() => Service.ChatSettings(sessionId))
export const setChatSettings = (sessionId: string, s: ChatSettings): Promise<ChatSettingsView> =>
  call(() => Service.SetChatSettings(sessionId, settings(s)))
export const applyToChat = (sessionId: string, id: number): Promise<ChatSettingsView> =>
  call(() => Service.ApplyToChat(sessionId, id))
/** The sampling parameters `model` ignores ("temperature", "top_p"), each with how that is known. */
export const modelParams = (model: string): Promise<Record<string, string>> =>
  call(async () => (await Service.ModelParams(model)) ?? {})
