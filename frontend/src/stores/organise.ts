// Pins, folders, the archive and the multi-selection of the chat list
// (issue 27). Every change goes to the backend, then the organisation is
// read again; the session list refreshes after a delete.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import * as api from '@/api/organise'
import type { Folder, Place } from '@/api/organise'
import { useSessionStore } from './sessions'

export const useOrganiseStore = defineStore('organise', () => {
  const folders = ref<Folder[]>([])
  const places = ref<Record<string, Place>>({})
  /** The chats ticked for a bulk action. */
  const selected = ref<Set<string>>(new Set())
  /** The list shows the archived chats instead. */
  const showArchived = ref(false)
  /** Folders shown closed. */
  const collapsed = ref<Set<number>>(new Set())

  async function load() {
    const o = await api.organisation()
    folders.value = o.folders
    places.value = o.places
    const exists = new Set(useSessionStore().sessions.map((s) => s.id))
    selected.value = new Set([...selected.value].filter((id) => exists.has(id)))
  }

  const placeOf = (id: string): Place => places.value[id] ?? { pinnedAt: '', folderId: 0, archivedAt: '' }
  const isPinned = (id: string) => !!placeOf(id).pinnedAt
  const isArchived = (id: string) => !!placeOf(id).archivedAt

  async function pin(ids: string[], on: boolean) {
    await api.pin(ids, on)
    await load()
  }
  async function archive(ids: string[], on: boolean) {
    await api.archive(ids, on)
    clearSelection()
    await load()
  }
  async function move(ids: string[], folderId: number) {
    await api.move(ids, folderId)
    if (folderId) collapsed.value.delete(folderId)
    await load()
  }
  async function createFolder(name: string) {
    const f = await api.createFolder(name)
    await load()
    return f
  }
  async function renameFolder(id: number, name: string) {
    await api.renameFolder(id, name)
    await load()
  }
  async function deleteFolder(id: number) {
    await api.deleteFolder(id)
    await load()
  }
  async function deleteMany(ids: string[]) {
    const n = await api.deleteMany(ids)
    const sessions = useSessionStore()
    if (sessions.currentId && ids.includes(sessions.currentId)) sessions.currentId = null
    clearSelection()
    await sessions.refresh()
    await load()
    return n
  }

  function toggleSelect(id: string) {
    const s = new Set(selected.value)
    if (s.has(id)) s.delete(id)
    else s.add(id)
    selected.value = s
  }
  function clearSelection() {
    selected.value = new Set()
  }
  function toggleFolder(id: number) {
    const s = new Set(collapsed.value)
    if (s.has(id)) s.delete(id)
    else s.add(id)
    collapsed.value = s
  }

  return {
    folders, places, selected, showArchived, collapsed, load, placeOf, isPinned, isArchived,
    pin, archive, move, createFolder, renameFolder, deleteFolder, deleteMany, toggleSelect, clearSelection, toggleFolder,
  }
})
