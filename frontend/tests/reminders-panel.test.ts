import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Reminder, ReminderList } from '@/api/reminders'
import HeaderTools from '@/components/shell/HeaderTools.vue'
import RemindersPanel from '@/components/reminders/RemindersPanel.vue'
import { useReminderEvents } from '@/composables/useReminderEvents'
import type { ReminderHandlers } from '@/api/reminders'
import { useReminderStore } from '@/stores/reminders'
import { useToastStore } from '@/stores/toasts'
import { defineComponent, h } from 'vue'
import { useSessionStore } from '@/stores/sessions'
import { formProblem, parseLocalInput, repeatChoice, toLocalInput } from '@/utils/reminderTime'
import { testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(() => () => {}), BrowserOpenURL: vi.fn() }))
vi.mock('@/api/reminders', () => ({
  list: vi.fn(),
  create: vi.fn(),
  edit: vi.fn(),
  cancel: vi.fn(),
  snooze: vi.fn(),
  done: vi.fn(),
  markSeen: vi.fn(async () => 0),
  onReminderEvents: vi.fn(() => () => {}),
}))
const api = vi.mocked(await import('@/api/reminders'))

const rem = (over: Partial<Reminder> = {}): Reminder => ({
  id: 1, content: '燃えるゴミ', dueAt: '2026-12-01T00:00:00Z', zone: 'Asia/Tokyo', repeat: '', state: 'pending',
  error: '', note: '', late: false, sessionId: '', origin: 'desktop', createdAt: '2026-11-30T00:00:00Z',
  notifiedAt: '', cancelledAt: '', unseen: false, ...over,
})
const listOf = (upcoming: Reminder[], past: Reminder[] = []): ReminderList => ({
  upcoming, past, unseen: [...upcoming, ...past].filter((r) => r.unseen).length, zone: 'Asia/Tokyo',
})
const tomorrow = () => toLocalInput(new Date(Date.now() + 24 * 60 * 60 * 1000))

function mountPanel() {
  return mount(RemindersPanel, { global: { plugins: [testI18n()] } })
}

beforeEach(() => {
  setActivePinia(createPinia())
  vi.clearAllMocks()
  api.markSeen.mockResolvedValue(0)
})

describe('reminder time helpers', () => {
  it('maps the repeat choices to RRULE values and back', () => {
    expect(repeatChoice('FREQ=DAILY')).toBe('daily')
    expect(repeatChoice('')).toBe('none')
    expect(repeatChoice('FREQ=DAILY;BYDAY=MO')).toBe('custom')
  })
  it('reads a datetime-local value as local time and refuses rolled-over dates', () => {
    const d = parseLocalInput('2026-12-01T09:30')!
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes()]).toEqual([2026, 11, 1, 9, 30])
    expect(parseLocalInput('2026-02-30T09:00')).toBeNull()
    expect(parseLocalInput('tomorrow')).toBeNull()
    const now = new Date(2026, 11, 1, 9, 0)
    expect(formProblem(' ', '2026-12-01T10:00', now)).toBe('content')
    expect(formProblem('x', '', now)).toBe('due')
    expect(formProblem('x', '2026-12-01T09:00', now)).toBe('duePast')
    expect(formProblem('x', '2026-12-01T09:01', now)).toBeNull()
  })
})

describe('RemindersPanel', () => {
  it('lists upcoming and past reminders with their states, why, and their chat', async () => {
    const sessions = useSessionStore()
    sessions.sessions = [{ id: 's1', title: 'ゴミの日', model: '', createdAt: '', updatedAt: '' } as never]
    api.list.mockResolvedValue(
      listOf(
        [rem({ id: 1, sessionId: 's1', repeat: 'FREQ=WEEKLY' }), rem({ id: 2, content: 'tea', state: 'snoozed' })],
        [
          rem({ id: 3, content: 'late one', state: 'delivered', late: true, unseen: true }),
          rem({ id: 4, content: 'broken', state: 'failed', error: 'dbus exploded', unseen: true }),
          rem({ id: 5, content: 'window only', state: 'delivered', note: 'no notification service' }),
        ],
      ),
    )
    const w = mountPanel()
    await flushPromises()
    const up = w.get('[data-testid="reminders-upcoming"]').findAll('[data-testid="reminder"]')
    expect(up.map((r) => r.attributes('data-state'))).toEqual(['pending', 'snoozed'])
    expect(up[0].text()).toContain('Every week')
    expect(up[0].get('[data-testid="reminder-session"]').text()).toContain('ゴミの日')
    const past = w.get('[data-testid="reminders-past"]').findAll('[data-testid="reminder"]')
    expect(past.map((r) => r.get('[data-testid="reminder-state"]').text())).toEqual([
      'Delivered late', 'Failed', 'Delivered',
    ])
    expect(past[1].get('[data-testid="reminder-error"]').text()).toBe('dbus exploded')
    expect(past[2].get('[data-testid="reminder-note"]').text()).toContain('no desktop notification service')
    // Opening the panel marks the deliveries seen.
    expect(api.markSeen).toHaveBeenCalledTimes(1)
    expect(useReminderStore().unseen).toBe(0)
    // The chat link selects the session and closes the panel.
    await up[0].get('[data-testid="reminder-session"]').trigger('click')
    expect(sessions.currentId).toBe('s1')
    expect(w.emitted('close')).toHaveLength(1)
  })

  it('validates the create form before sending and sends the repeat as an RRULE value', async () => {
    api.list.mockResolvedValue(listOf([]))
    api.create.mockResolvedValue(rem({ id: 9, content: '資源ゴミ' }))
    const w = mountPanel()
    await flushPromises()
    expect(w.find('[data-testid="reminders-none"]').exists()).toBe(true)
    await w.get('[data-testid="reminder-new"]').trigger('click')
    await w.get('[data-testid="reminder-content"]').setValue('   ')
    await w.get('[data-testid="reminder-form"]').trigger('submit')
    expect(w.get('[data-testid="reminder-form-problem"]').text()).toBe('Write what to remind you of.')
    await w.get('[data-testid="reminder-content"]').setValue('資源ゴミ')
    await w.get('[data-testid="reminder-due"]').setValue('2001-01-01T09:00')
    await w.get('[data-testid="reminder-form"]').trigger('submit')
    expect(w.get('[data-testid="reminder-form-problem"]').text()).toBe('Choose a time in the future.')
    expect(api.create).not.toHaveBeenCalled()
    const due = tomorrow()
    await w.get('[data-testid="reminder-due"]').setValue(due)
    await w.get('[data-testid="reminder-repeat"]').setValue('weekly')
    await w.get('[data-testid="reminder-form"]').trigger('submit')
    await flushPromises()
    expect(api.create).toHaveBeenCalledWith({ content: '資源ゴミ', due, repeat: 'FREQ=WEEKLY', sessionId: '' })
    expect(w.find('[data-testid="reminder-form"]').exists()).toBe(false)
  })

  it('shows the backend refusal in the UI language and keeps the form', async () => {
    api.list.mockResolvedValue(listOf([]))
    api.create.mockRejectedValue(
      new Error(JSON.stringify({ code: 'reminders.dueTooFar', params: { due: 'X', maxDays: 365 }, message: 'too far' })),
    )
    const w = mountPanel()
    await flushPromises()
    await w.get('[data-testid="reminder-new"]').trigger('click')
    await w.get('[data-testid="reminder-content"]').setValue('x')
    await w.get('[data-testid="reminder-due"]').setValue(tomorrow())
    await w.get('[data-testid="reminder-form"]').trigger('submit')
    await flushPromises()
    expect(w.get('[data-testid="reminder-form-error"]').text()).toContain('more than 365 days ahead')
    expect(w.find('[data-testid="reminder-form"]').exists()).toBe(true)
  })

  it('snoozes by the chosen time and cancels an upcoming reminder', async () => {
    api.list.mockResolvedValue(listOf([rem({ id: 7 })]))
    api.snooze.mockResolvedValue(rem({ id: 7, state: 'snoozed' }))
    api.cancel.mockResolvedValue(rem({ id: 7, state: 'cancelled' }))
    const w = mountPanel()
    await flushPromises()
    await w.get('[data-testid="reminder-snooze"]').trigger('click')
    expect(api.snooze).toHaveBeenLastCalledWith(7, 10)
    await w.get('[data-testid="reminder"] select').setValue('60')
    await w.get('[data-testid="reminder-snooze"]').trigger('click')
    expect(api.snooze).toHaveBeenLastCalledWith(7, 60)
    await w.get('[data-testid="reminder-cancel"]').trigger('click')
    expect(api.cancel).toHaveBeenCalledWith(7)
    await flushPromises()
    expect(api.list).toHaveBeenCalledTimes(4) // the first read and one after each change
  })
})

describe("the header's reminders button", () => {
  it('shows a badge while deliveries are unseen', async () => {
    const store = useReminderStore()
    const w = mount(HeaderTools, { props: { panel: null, notesOpen: false }, global: { plugins: [testI18n()] } })
    expect(w.find('[data-testid="reminders-badge"]').exists()).toBe(false)
    store.fired()
    store.fired()
    await flushPromises()
    expect(w.get('[data-testid="reminders-badge"]').text()).toBe('2')
    expect(w.get('[data-testid="open-reminders"]').attributes('aria-label')).toBe('Reminders (2 new)')
  })
})

describe('useReminderEvents', () => {
  it('shows a toast when a reminder fires, counts it, and a notification click selects its chat', async () => {
    let handlers: ReminderHandlers | null = null
    api.onReminderEvents.mockImplementation((h) => {
      handlers = h
      return () => {}
    })
    api.list.mockResolvedValue(listOf([]))
    const sessions = useSessionStore()
    sessions.sessions = [{ id: 's9', title: 'x', model: '', createdAt: '', updatedAt: '' } as never]
    const Host = defineComponent({
      setup() {
        useReminderEvents(() => false)
        return () => h('div')
      },
    })
    mount(Host, { global: { plugins: [testI18n()] } })
    await flushPromises()
    expect(handlers).not.toBeNull()
    handlers!.fired({ reminder: rem({ id: 3, content: '燃えるゴミ' }), late: false })
    expect(useToastStore().toasts.map((t) => t.message)).toEqual(['⏰ Reminder: 燃えるゴミ'])
    expect(useReminderStore().unseen).toBe(1)
    handlers!.open({ reminderId: 3, sessionId: 's9' })
    expect(sessions.currentId).toBe('s9')
    handlers!.open({ reminderId: 4, sessionId: 'gone' })
    expect(sessions.currentId).toBe('s9')
  })
})
