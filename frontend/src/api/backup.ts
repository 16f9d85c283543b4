// Backups, restores and readable chat exports (issue 27, app.BackupService).
import * as BackupService from '../../wailsjs/go/app/BackupService'
import { EventsOn } from '../../wailsjs/runtime/runtime'
import { BACKUP_PROGRESS, BACKUP_RESULT, type BackupProgress as EventBackupProgress } from './events'
import { call } from './errors'
import { printHTML } from '../utils/printChat'

/** How one backup went (app.BackupRun). `at` is RFC 3339 UTC. */
export interface BackupRun {
  at: string
  ok: boolean
  error: string
  path: string
  size: number
  auto: boolean
}

/** What an archive holds (app.BackupInfo). */
export interface BackupInfo {
  createdAt: string
  appVersion: string
  secrets: boolean
  sessions: number
  messages: number
  notes: number
  kbFiles: number
  path: string
}

/** How the last restore went (app.RestoreRun). */
export interface RestoreRun {
  at: string
  archiveCreatedAt: string
  ok: boolean
  error: string
  safety: string
}

/** Settings → Backups (app.BackupStatus). */
export interface BackupStatus {
  lastBackup: BackupRun | null
  lastSuccess: BackupRun | null
  lastRestore: RestoreRun | null
  /** A verified restore waiting for the next start. */
  pending: BackupInfo | null
  dir: string
  auto: boolean
  keep: number
  webdav: string
  running: boolean
}

export interface ChosenArchive {
  path: string
  encrypted: boolean
}

export type ExportFormat = 'md' | 'html' | 'json'

const run = (r: Partial<BackupRun> | null | undefined): BackupRun | null =>
  r ? { at: r.at ?? '', ok: !!r.ok, error: r.error ?? '', path: r.path ?? '', size: r.size ?? 0, auto: !!r.auto } : null

const info = (r: Partial<BackupInfo> | null | undefined): BackupInfo | null =>
  r
    ? {
        createdAt: r.createdAt ?? '', appVersion: r.appVersion ?? '', secrets: !!r.secrets, sessions: r.sessions ?? 0,
        messages: r.messages ?? 0, notes: r.notes ?? 0, kbFiles: r.kbFiles ?? 0, path: r.path ?? '',
      }
    : null

export async function backupStatus(): Promise<BackupStatus> {
  const s = await call(() => BackupService.Status())
  const r = s?.lastRestore
  return {
    lastBackup: run(s?.lastBackup), lastSuccess: run(s?.lastSuccess),
    lastRestore: r ? { at: r.at, archiveCreatedAt: r.archiveCreatedAt, ok: !!r.ok, error: r.error ?? '', safety: r.safety ?? '' } : null,
    pending: info(s?.pending), dir: s?.dir ?? '', auto: !!s?.auto, keep: s?.keep ?? 0, webdav: s?.webdav ?? '', running: !!s?.running,
  }
}

/** Asks where to save and writes a backup; null when the user cancelled. */
export async function createBackup(includeKeys: boolean, passphrase: string): Promise<BackupRun | null> {
  const r = run(await call(() => BackupService.Create(includeKeys, passphrase)))
  return r && r.path ? r : null
}

/** Writes a backup without API keys into the backup folder. */
export async function backupNow(): Promise<BackupRun> {
  return run(await call(() => BackupService.CreateNow()))!
}

/** Asks for a backup file; null when cancelled. */
export async function chooseArchive(): Promise<ChosenArchive | null> {
  const c = await call(() => BackupService.ChooseArchive())
  return c?.path ? { path: c.path, encrypted: !!c.encrypted } : null
}

/** Verifies the archive and stages it for the next start. */
export async function stageRestore(path: string, passphrase: string): Promise<BackupInfo> {
  return info(await call(() => BackupService.Stage(path, passphrase)))!
}

export async function cancelRestore(): Promise<void> {
  await call(() => BackupService.CancelRestore())
}

export async function testWebDAV(url: string, user: string, password: string): Promise<void> {
  await call(() => BackupService.TestWebDAV(url, user, password))
}

/** Asks where to save and writes the chat; '' when cancelled. */
export async function exportChat(id: string, format: ExportFormat): Promise<string> {
  return await call(() => BackupService.ExportChat(id, format))
}

/** Opens the print dialog (Print / PDF) for the chat's HTML export. */
export async function printChat(id: string): Promise<void> {
  const html = await call(() => BackupService.ChatHTML(id))
  await printHTML(html)
}

/** Where an export of several chats went and how many it holds; path '' when cancelled. */
export interface ArchiveExport {
  path: string
  chats: number
}

/** Asks where to save and writes the chats as one .zip (a file each, plus their JSON). */
export async function exportChats(ids: string[], format: ExportFormat): Promise<ArchiveExport> {
  const r = await call(() => BackupService.ExportChats(ids, format))
  return { path: r?.path ?? '', chats: r?.chats ?? 0 }
}

/** exportChats of every chat of a folder (archived ones too). */
export async function exportFolder(id: number, format: ExportFormat): Promise<ArchiveExport> {
  const r = await call(() => BackupService.ExportFolder(id, format))
  return { path: r?.path ?? '', chats: r?.chats ?? 0 }
}

/** A running backup's or restore check's progress (Go: app.BackupProgress; op is "backup" or "restore"). */
export type BackupProgress = EventBackupProgress

/** Calls handler with each progress report; returns the unsubscribe function. */
export function onBackupProgress(handler: (p: BackupProgress) => void): () => void {
  const off = EventsOn(BACKUP_PROGRESS, (v: unknown) => {
    const o = (v ?? {}) as Partial<BackupProgress>
    handler({ op: o.op ?? '', done: o.done ?? 0, total: o.total ?? 0 })
  })
  return () => typeof off === 'function' && off()
}

/** Calls handler when an automatic backup finished; returns the unsubscribe function. */
export function onBackupResult(handler: (r: BackupRun) => void): () => void {
  const off = EventsOn(BACKUP_RESULT, (v: unknown) => {
    const r = run(v as Partial<BackupRun>)
    if (r) handler(r)
  })
  return () => typeof off === 'function' && off()
}
