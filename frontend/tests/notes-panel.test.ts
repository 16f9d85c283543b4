import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { NotePage } from '@/api/types'
import ConfirmDialog from '@/components/common/ConfirmDialog.vue'
import NotePanel from '@/components/notes/NotePanel.vue'
import { useNotesStore } from '@/stores/notes'
import { useSessionStore } from '@/stores/sessions'
import { useToastStore } from '@/stores/toasts'
import { testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))
vi.mock('@/api/notes', () => ({
  list: vi.fn(),
  create: vi.fn(),
  update: vi.fn(),
  remove: vi.fn(async () => {}),
  setSection: vi.fn(async () => ({})),
  renameSection: vi.fn(async () => 1),
  reorder: vi.fn(),
  pins: vi.fn(async () => []),
  setPins: vi.fn(async () => {}),
}))
const api = vi.mocked(await import('@/api/notes'))

const page = (id: number, section = '', content = 'text ' + id, version = 1): NotePage => ({
  id, title: 'Page ' + id, content, section, position: 0, updatedAt: '2025-01-01T00:00:00Z', version,
})

let wrapper: VueWrapper | null = null
async function mountPanel() {
  const w = mount({ components: { NotePanel, ConfirmDialog }, template: '<div><NotePanel /><ConfirmDialog /></div>' }, {
    global: { plugins: [testI18n()] },
    attachTo: document.body,
  })
  wrapper = w
  await flushPromises()
  return w
}

/** Gives a tab a box, so the left/right half is known (jsdom has no layout). */
function box(w: VueWrapper, testid: string, left: number, width = 100) {
  const el = w.get(`[data-testid="${testid}"]`).element as HTMLElement
  el.getBoundingClientRect = () => ({ left, width, right: left + width, top: 0, bottom: 30, height: 30, x: left, y: 0, toJSON: () => ({}) })
}

beforeEach(() => {
  wrapper?.unmount()
  wrapper = null
  vi.clearAllMocks()
  setActivePinia(createPinia())
  useSessionStore().currentId = 's1'
  api.list.mockResolvedValue([page(1), page(2, 'A'), page(3, 'A'), page(4, 'B')])
})

describe('NotePanel', () => {
  it('explains notes when there are none', async () => {
    api.list.mockResolvedValue([])
    const w = await mountPanel()
    expect(w.get('[data-testid="note-empty"]').text()).toContain('share with the AI')
  })

  it('groups tabs by section with labels and stable test ids', async () => {
    const w = await mountPanel()
    const groups = w.findAll('.group').map((g) => [
      g.attributes('data-section'),
      g.findAll('[role="tab"]').map((t) => t.attributes('data-testid')),
    ])
    expect(groups).toEqual([
      ['', ['note-tab-1']],
      ['A', ['note-tab-2', 'note-tab-3']],
      ['B', ['note-tab-4']],
    ])
    expect(w.get('[data-testid="note-section-A"]').text()).toBe('A')
    expect(w.find('[data-testid="note-section-"]').exists()).toBe(false)
    expect(w.get('[data-testid="note-tab-2"]').attributes('draggable')).toBe('true')
    expect(w.find('[data-testid="note-drop-end"]').exists()).toBe(true)
  })

  it('drags a tab onto the right half of another: a blue line, then one Reorder call', async () => {
    const w = await mountPanel()
    box(w, 'note-tab-3', 200)
    api.reorder.mockResolvedValue([page(2, 'A'), page(3, 'A'), page(1, 'A'), page(4, 'B')])
    await w.get('[data-testid="note-tab-1"]').trigger('dragstart')
    await w.get('[data-testid="note-tab-3"]').trigger('dragover', { clientX: 290 })
    const line = w.get('[data-testid="note-tab-3"] [data-testid="note-drop-line"]')
    expect(line.classes()).toContain('after')
    await w.get('[data-testid="note-tab-3"]').trigger('drop', { clientX: 290 })
    await flushPromises()
    expect(api.reorder).toHaveBeenCalledTimes(1)
    expect(api.reorder).toHaveBeenCalledWith(1, 'A', [2, 3, 1, 4])
    expect(w.find('[data-testid="note-drop-line"]').exists()).toBe(false)
  })

  it('the left half inserts before, taking that tab’s section', async () => {
    const w = await mountPanel()
    box(w, 'note-tab-2', 100)
    api.reorder.mockResolvedValue([page(1), page(4, 'A'), page(2, 'A'), page(3, 'A')])
    await w.get('[data-testid="note-tab-4"]').trigger('dragstart')
    await w.get('[data-testid="note-tab-2"]').trigger('dragover', { clientX: 110 })
    expect(w.get('[data-testid="note-tab-2"] [data-testid="note-drop-line"]').classes()).toContain('before')
    await w.get('[data-testid="note-tab-2"]').trigger('drop', { clientX: 110 })
    await flushPromises()
    expect(api.reorder).toHaveBeenCalledWith(4, 'A', [1, 4, 2, 3])
  })

  it('the end zone ungroups the page and appends it', async () => {
    const w = await mountPanel()
    api.reorder.mockResolvedValue([page(1), page(3, 'A'), page(4, 'B'), page(2)])
    await w.get('[data-testid="note-tab-2"]').trigger('dragstart')
    await w.get('[data-testid="note-drop-end"]').trigger('dragover')
    expect(w.find('[data-testid="note-drop-end"] [data-testid="note-drop-line"]').exists()).toBe(true)
    await w.get('[data-testid="note-drop-end"]').trigger('drop')
    await flushPromises()
    expect(api.reorder).toHaveBeenCalledWith(2, '', [1, 3, 4, 2])
  })

  it('shows no line and sends nothing when a tab is dropped onto itself', async () => {
    const w = await mountPanel()
    box(w, 'note-tab-2', 100)
    await w.get('[data-testid="note-tab-2"]').trigger('dragstart')
    await w.get('[data-testid="note-tab-2"]').trigger('dragover', { clientX: 120 })
    expect(w.find('[data-testid="note-drop-line"]').exists()).toBe(false)
    await w.get('[data-testid="note-tab-2"]').trigger('drop', { clientX: 120 })
    await flushPromises()
    expect(api.reorder).not.toHaveBeenCalled()
  })

  it('renames a section by double-clicking its label', async () => {
    const w = await mountPanel()
    api.list.mockResolvedValue([page(1), page(2, 'Plans'), page(3, 'Plans'), page(4, 'B')])
    await w.get('[data-testid="note-section-A"]').trigger('dblclick')
    const input = w.get('[data-testid="note-section-input"]')
    await input.setValue('Plans')
    await input.trigger('keydown', { key: 'Enter' })
    await flushPromises()
    expect(api.renameSection).toHaveBeenCalledWith('A', 'Plans')
    expect(w.find('[data-testid="note-section-Plans"]').exists()).toBe(true)
  })

  it('keeps an unsaved edit across tabs and saves it with Ctrl+S', async () => {
    const w = await mountPanel()
    await w.get('[data-testid="note-editor"]').setValue('edited')
    expect(w.find('[data-testid="note-unsaved"]').exists()).toBe(true)
    await w.get('[data-testid="note-tab-2"]').trigger('click')
    expect((w.get('[data-testid="note-editor"]').element as HTMLTextAreaElement).value).toBe('text 2')
    await w.get('[data-testid="note-tab-1"]').trigger('click')
    expect((w.get('[data-testid="note-editor"]').element as HTMLTextAreaElement).value).toBe('edited')
    expect(w.get('[data-testid="note-tab-1"]').text()).toContain('●')

    api.update.mockResolvedValue({ saved: true, page: page(1, '', 'edited', 2) })
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 's', ctrlKey: true, bubbles: true }))
    await flushPromises()
    expect(api.update).toHaveBeenCalledWith(1, 'Page 1', 'edited', 1)
    expect(w.find('[data-testid="note-unsaved"]').exists()).toBe(false)
  })

  it('shows both sides of a clashing save, saves nothing until the user chooses, then saves the choice', async () => {
    const w = await mountPanel()
    await w.get('[data-testid="note-editor"]').setValue('my line')
    api.update.mockResolvedValueOnce({ saved: false, page: page(1, '', 'the AI line', 2) })
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 's', ctrlKey: true, bubbles: true }))
    await flushPromises()
    expect(api.update).toHaveBeenCalledTimes(1)
    expect(w.get('[data-testid="note-clash-block-mine"]').text()).toBe('my line')
    expect(w.get('[data-testid="note-clash-block-theirs"]').text()).toBe('the AI line')
    expect(w.find('[data-testid="note-editor"]').exists()).toBe(false)
    expect(w.get('[data-testid="note-save"]').attributes('disabled')).toBeDefined()
    // Ctrl+S again does not write over the other change.
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 's', ctrlKey: true, bubbles: true }))
    await flushPromises()
    expect(api.update).toHaveBeenCalledTimes(1)

    api.update.mockResolvedValueOnce({ saved: true, page: page(1, '', 'my line\nthe AI line', 3) })
    await w.get('[data-testid="note-clash-both"]').trigger('click')
    await flushPromises()
    expect(api.update).toHaveBeenLastCalledWith(1, 'Page 1', 'my line\nthe AI line', 2)
    expect(w.find('[data-testid="note-clash"]').exists()).toBe(false)
    expect((w.get('[data-testid="note-editor"]').element as HTMLTextAreaElement).value).toBe('my line\nthe AI line')
    expect(w.find('[data-testid="note-unsaved"]').exists()).toBe(false)
  })

  it('puts both sides between markers to edit by hand, and asks before saving markers', async () => {
    const w = await mountPanel()
    await w.get('[data-testid="note-editor"]').setValue('my line')
    api.update.mockResolvedValueOnce({ saved: false, page: page(1, '', 'the AI line', 2) })
    await w.get('[data-testid="note-save"]').trigger('click')
    await flushPromises()
    await w.get('[data-testid="note-clash-edit"]').trigger('click')
    await flushPromises()
    const editor = w.get('[data-testid="note-editor"]')
    expect((editor.element as HTMLTextAreaElement).value).toBe(
      '<<<<<<< Your edit\nmy line\n=======\nthe AI line\n>>>>>>> Saved version',
    )
    expect(api.update).toHaveBeenCalledTimes(1)

    await w.get('[data-testid="note-save"]').trigger('click')
    await flushPromises()
    expect(w.text()).toContain('still has conflict blocks')
    expect(api.update).toHaveBeenCalledTimes(1) // waits for the answer

    await editor.setValue('my line, then the AI line')
    api.update.mockResolvedValueOnce({ saved: true, page: page(1, '', 'my line, then the AI line', 3) })
    await w.get('[data-testid="note-save"]').trigger('click')
    await flushPromises()
    expect(api.update).toHaveBeenLastCalledWith(1, 'Page 1', 'my line, then the AI line', 2)
  })

  it('saves a clean merge with the AI’s append and says so', async () => {
    api.list.mockResolvedValue([page(1, '', 'a\nb')])
    const w = await mountPanel()
    await w.get('[data-testid="note-editor"]').setValue('A\nb')
    api.update
      .mockResolvedValueOnce({ saved: false, page: page(1, '', 'a\nb\nfrom the AI', 2) })
      .mockResolvedValueOnce({ saved: true, page: page(1, '', 'A\nb\nfrom the AI', 3) })
    await w.get('[data-testid="note-save"]').trigger('click')
    await flushPromises()
    expect(api.update).toHaveBeenLastCalledWith(1, 'Page 1', 'A\nb\nfrom the AI', 2)
    expect(useToastStore().toasts.map((x) => x.message)).toContain(
      'Saved, merged with the change made meanwhile (by the AI, for example)',
    )
    expect(w.find('[data-testid="note-clash"]').exists()).toBe(false)
  })

  it('previews the Markdown, sanitised', async () => {
    api.list.mockResolvedValue([page(1, '', '**bold** <img src=x onerror=alert(1)>')])
    const w = await mountPanel()
    await w.get('[data-testid="note-mode-preview"]').trigger('click')
    const preview = w.get('[data-testid="note-preview"]')
    expect(preview.find('strong').text()).toBe('bold')
    expect(preview.html()).not.toContain('onerror')
  })

  it('pins the open page for the chat and marks its tab', async () => {
    const w = await mountPanel()
    await w.get('[data-testid="note-pin"]').trigger('click')
    await flushPromises()
    expect(api.setPins).toHaveBeenCalledWith('s1', [1])
    expect(w.find('[data-testid="note-tab-1"] [data-testid="note-pin-icon"]').exists()).toBe(true)
    expect(w.get('[data-testid="note-pin-hint"]').text()).toContain('sent in full to the AI')
  })

  it('moves a page to another section from the menu', async () => {
    const w = await mountPanel()
    await w.get('[data-testid="note-menu"]').trigger('click')
    await w.get('[data-testid="note-move-B"]').trigger('click')
    await flushPromises()
    expect(api.setSection).toHaveBeenCalledWith(1, 'B')
  })

  it('deletes a page after confirmation', async () => {
    const w = await mountPanel()
    api.list.mockResolvedValue([page(2, 'A'), page(3, 'A'), page(4, 'B')])
    await w.get('[data-testid="note-menu"]').trigger('click')
    await w.get('[data-testid="note-menu-delete"]').trigger('click')
    await flushPromises()
    expect(w.text()).toContain('Delete the page “Page 1”?')
    await w.get('[data-testid="confirm-ok"]').trigger('click')
    await flushPromises()
    expect(api.remove).toHaveBeenCalledWith(1)
    expect(useNotesStore().currentId).toBe(2)
  })

  it('creates a page with a section', async () => {
    const w = await mountPanel()
    api.create.mockResolvedValue(page(9, 'B'))
    api.list.mockResolvedValue([page(1), page(2, 'A'), page(3, 'A'), page(4, 'B'), page(9, 'B')])
    await w.get('[data-testid="note-new"]').trigger('click')
    await w.get('[data-testid="note-create-title"]').setValue('Ideas')
    await w.get('[data-testid="note-create-section"]').setValue('B')
    await w.get('[data-testid="note-create-form"]').trigger('submit')
    await flushPromises()
    expect(api.create).toHaveBeenCalledWith('Ideas', '', 'B')
    expect(useNotesStore().currentId).toBe(9)
  })
})
