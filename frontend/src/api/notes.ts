// The notes adapter: the shared notes' pages, their order and the pages
// pinned to a session (NotesService).
import * as NotesService from '../../wailsjs/go/app/NotesService'
import { call } from './errors'
import type { NotePage } from './types'

/** Every page in tab order. */
export const list = (): Promise<NotePage[]> => call(async () => (await NotesService.List()) ?? [])

/** Adds a page at the end of its section ("" = ungrouped, at the very end). */
export const create = (title: string, content: string, section: string): Promise<NotePage> =>
  call(() => NotesService.Create(title, content, section))

/** The outcome of a save: the saved page, or (saved false) the newer page that refused it. */
export interface NoteSave {
  saved: boolean
  page: NotePage
}

/**
 * Replaces a page's title and content if the page is still at `baseVersion`
 * (the version the draft started from). Otherwise nothing is written and the
 * result carries the current page, to merge with.
 */
export const update = (id: number, title: string, content: string, baseVersion: number): Promise<NoteSave> =>
  call(() => NotesService.Update(id, title, content, baseVersion))

/** Changes only a page's title; its stored content is left as it is. */
export const rename = (id: number, title: string): Promise<NotePage> =>
  call(() => NotesService.Rename(id, title))

export const remove = (id: number): Promise<void> => call(() => NotesService.Delete(id))

/** Moves a page to the end of a section ("" ungroups it). */
export const setSection = (id: number, section: string): Promise<NotePage> =>
  call(() => NotesService.SetSection(id, section))

/** Renames a section on all its pages; returns how many pages changed. */
export const renameSection = (from: string, to: string): Promise<number> =>
  call(() => NotesService.RenameSection(from, to))

/**
 * Applies a drag and drop: `order` lists every page id in the new order and
 * page `pageId` takes `section`. Returns every page in the new order.
 */
export const reorder = (pageId: number, section: string, order: number[]): Promise<NotePage[]> =>
  call(async () => (await NotesService.Reorder(pageId, section, order)) ?? [])

/** The ids of the pages pinned to a session. */
export const pins = (sessionId: string): Promise<number[]> =>
  call(async () => (await NotesService.Pins(sessionId)) ?? [])

/** Replaces the pages pinned to a session. */
export const setPins = (sessionId: string, ids: number[]): Promise<void> =>
  call(() => NotesService.SetPins(sessionId, ids))
