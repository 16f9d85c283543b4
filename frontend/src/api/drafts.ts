// The drafts adapter (Go: app.DraftService): what the window has not sent or
// saved yet, kept in the data dir's database — not in WebKit's storage,
// which every data dir shares (issue 22).
import * as DraftService from '../../wailsjs/go/app/DraftService'
import { call } from './errors'

/** The kinds of drafts: the message box of each chat, unsaved note edits. */
export type DraftKind = 'messages' | 'notes'

/** The drafts of kind as saved (a JSON object), "" when there are none. */
export const load = (kind: DraftKind): Promise<string> => call(async () => (await DraftService.Load(kind)) ?? '')

/** Replaces the drafts of kind ("" or "{}" removes them). */
export const save = (kind: DraftKind, data: string): Promise<void> => call(() => DraftService.Save(kind, data))
