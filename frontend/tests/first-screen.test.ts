import { describe, expect, it, vi } from 'vitest'
import { loadFirstScreen, type FirstScreenSources } from '@/composables/firstScreen'
import type { StartupStatus } from '@/api/system'
import type { AppInfo } from '@/api/types'

const ok: StartupStatus = { ok: true, locale: 'ja', dataDir: '/d', uiLanguage: 'auto' }
const starting = { code: 'app.starting', params: {}, message: 'playchat is still starting' }
const info = { dataDir: '/d' } as unknown as AppInfo

/** A backend whose answers the test releases one by one. */
function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

describe('loadFirstScreen (issue 22: start-up)', () => {
  it('asks for the lists and the info before the status has answered', async () => {
    const status = deferred<StartupStatus>()
    const calls: string[] = []
    const src: FirstScreenSources = {
      status: () => (calls.push('status'), status.promise),
      info: async () => (calls.push('info'), info),
      lists: () => ['sessions', 'models', 'organise'].map(async (n) => void calls.push(n)),
      pause: async () => undefined,
    }
    const done = loadFirstScreen(src)
    await Promise.resolve()
    // Every read is out while the status is still on its way: one round trip, not two.
    expect(calls.sort()).toEqual(['info', 'models', 'organise', 'sessions', 'status'])
    status.resolve(ok)
    const first = await done
    expect(first.failed).toBeNull()
    if (first.failed === null) {
      expect(first.info).toBe(info)
      expect(first.results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled'])
    }
  })

  it('reads the lists again when they were refused because the backend was still starting', async () => {
    let started = false
    const sessions = vi.fn(async () => {
      if (!started) throw starting
    })
    let polls = 0
    const src: FirstScreenSources = {
      status: async () => {
        polls++
        if (polls < 3) return { ...ok, ok: false, error: starting }
        started = true
        return ok
      },
      info: async () => info,
      lists: () => [sessions(), Promise.resolve(), Promise.resolve()],
      pause: async () => undefined,
    }
    const first = await loadFirstScreen(src)
    expect(polls).toBe(3)
    expect(sessions).toHaveBeenCalledTimes(2)
    expect(first.failed === null && first.results.every((r) => r.status === 'fulfilled')).toBe(true)
  })

  it('keeps a list failure that is not the start for the toast, without asking again', async () => {
    const models = vi.fn(async () => {
      throw { code: 'llm.unreachable', params: {}, message: 'no model' }
    })
    const src: FirstScreenSources = {
      status: async () => ok,
      info: async () => info,
      lists: () => [Promise.resolve(), models(), Promise.resolve()],
      pause: async () => undefined,
    }
    const first = await loadFirstScreen(src)
    expect(models).toHaveBeenCalledOnce()
    expect(first.failed === null && first.results[1].status).toBe('rejected')
  })

  it('returns a failed start for the error screen and ignores the lists', async () => {
    const damaged = { code: 'store.damaged', params: {}, message: 'damaged' }
    const src: FirstScreenSources = {
      status: async () => ({ ...ok, ok: false, error: damaged }),
      info: async () => {
        throw damaged
      },
      lists: () => [Promise.reject(damaged), Promise.reject(damaged), Promise.reject(damaged)],
      pause: async () => undefined,
    }
    const first = await loadFirstScreen(src)
    expect(first.failed?.error?.code).toBe('store.damaged')
  })
})
