// Pins, folders and the archive of chats (issue 27, app.OrganiseService).
import * as OrganiseService from '../../wailsjs/go/app/OrganiseService'
import { call } from './errors'

export interface Folder {
  id: number
  name: string
  position: number
}

/** Where a chat sits; times are RFC 3339 UTC, '' when unset; folderId 0 is the top level. */
export interface Place {
  pinnedAt: string
  folderId: number
  archivedAt: string
}

export interface Organisation {
  folders: Folder[]
  places: Record<string, Place>
}

export async function organisation(): Promise<Organisation> {
  const o = await call(() => OrganiseService.Overview())
  const places: Record<string, Place> = {}
  for (const [id, p] of Object.entries(o?.places ?? {})) {
    places[id] = { pinnedAt: p?.pinnedAt ?? '', folderId: p?.folderId ?? 0, archivedAt: p?.archivedAt ?? '' }
  }
  return { folders: (o?.folders ?? []).map((f) => ({ id: f.id, name: f.name, position: f.position })), places }
}

export const createFolder = (name: string): Promise<Folder> => call(() => OrganiseService.CreateFolder(name))
export const renameFolder = (id: number, name: string): Promise<Folder> => call(() => OrganiseService.RenameFolder(id, name))
export const deleteFolder = (id: number): Promise<void> => call(() => OrganiseService.DeleteFolder(id))
export const pin = (ids: string[], pinned: boolean): Promise<void> => call(() => OrganiseService.Pin(ids, pinned))
export const archive = (ids: string[], archived: boolean): Promise<void> => call(() => OrganiseService.Archive(ids, archived))
export const move = (ids: string[], folderId: number): Promise<void> => call(() => OrganiseService.Move(ids, folderId))
export const deleteMany = (ids: string[]): Promise<number> => call(() => OrganiseService.DeleteMany(ids))
