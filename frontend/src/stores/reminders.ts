// The reminders of the reminders panel: upcoming and past, how many
// deliveries are unseen (the nav badge), and the changes made by hand.
import { defineStore } from 'pinia'
import { infoOf, type ErrorInfo } from '@/api/errors'
import { computed, ref } from 'vue'
import * as api from '@/api/reminders'
import type { Reminder, ReminderInput } from '@/api/reminders'

export const useReminderStore = defineStore('reminders', () => {
  const upcoming = ref<Reminder[]>([])
  const past = ref<Reminder[]>([])
  const unseen = ref(0)
  const zone = ref('')
  const loaded = ref(false)
  const loading = ref(false)
  const error = ref<ErrorInfo | null>(null)
  let again = false

  /** Reads the list; a call while one runs reads once more after it. */
  async function load() {
    if (loading.value) {
      again = true
      return
    }
    loading.value = true
    try {
      do {
        again = false
        const l = await api.list()
        upcoming.value = l.upcoming
        past.value = l.past
        unseen.value = l.unseen
        zone.value = l.zone
        loaded.value = true
        error.value = null
      } while (again)
    } catch (e) {
      error.value = infoOf(e)
    } finally {
      loading.value = false
    }
  }

  /** Runs a change by hand, then reads the list again. */
  async function after(p: Promise<Reminder>): Promise<Reminder> {
    const r = await p
    await load()
    return r
  }

  const create = (input: ReminderInput) => after(api.create(input))
  const edit = (id: number, input: ReminderInput) => after(api.edit(id, input))
  const cancel = (id: number) => after(api.cancel(id))
  const snooze = (id: number, minutes: number) => after(api.snooze(id, minutes))
  const done = (id: number) => after(api.done(id))

  /** Marks every delivery seen (the panel is open); the badge clears at once. */
  async function markSeen() {
    if (unseen.value === 0) return
    unseen.value = 0
    await api.markSeen()
  }

  /** A reminder fired: count it until the list is read again. */
  function fired() {
    unseen.value += 1
  }

  const byId = computed(() => new Map([...upcoming.value, ...past.value].map((r) => [r.id, r])))

  return { upcoming, past, unseen, zone, loaded, loading, error, byId, load, create, edit, cancel, snooze, done, markSeen, fired }
})
