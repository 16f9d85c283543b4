// What the window asks the backend for before its first screen (issue 22:
// start-up): the start-up status, the app's settings (the UI language) and
// the lists the sidebar and the header show. All of it is asked for at once,
// from App's setup, so Go answers while the page is still being mounted and
// laid out, instead of one round trip after another once it has been.

import { infoOf } from '@/api/errors'
import type { StartupStatus } from '@/api/system'
import type { AppInfo } from '@/api/types'

/** What the first screen needs from the backend. */
export interface FirstScreenSources {
  /** The start-up status (SystemService.Startup). */
  status: () => Promise<StartupStatus>
  /** The app's settings and paths (SystemService.Info). */
  info: () => Promise<AppInfo | null>
  /** Loads for the first screen, in order: sessions, models, organisation. */
  lists: () => Promise<void>[]
  /** Waits between status polls while the backend is still starting (200 ms in the app). */
  pause: () => Promise<void>
}

/** How the first screen's loads went. */
export type FirstScreen =
  /** The backend did not start: the start-up error screen shows this status. */
  | { failed: StartupStatus }
  /** Started: the lists' results (in FirstScreenSources.lists' order) and the info (null if its read failed). */
  | { failed: null; results: PromiseSettledResult<void>[]; info: AppInfo | null }

const STARTING = 'app.starting'

/** Status polls while the backend is still starting: a minute at 200 ms. */
export const STATUS_POLLS = 300

/**
 * The start-up status. While the backend is still starting (a large
 * database's check takes a moment) it is asked again, up to STATUS_POLLS
 * times; null when it never answered.
 */
export async function waitForStartup(src: Pick<FirstScreenSources, 'status' | 'pause'>): Promise<StartupStatus | null> {
  for (let i = 0; i < STATUS_POLLS; i++) {
    try {
      const st = await src.status()
      if (st.ok || st.error?.code !== STARTING) return st
    } catch (e) {
      if (infoOf(e).code !== STARTING) return null
    }
    await src.pause()
  }
  return null
}

async function loadOnce(src: FirstScreenSources) {
  const [results, info] = await Promise.all([
    Promise.allSettled(src.lists()),
    src.info().then(
      (i: AppInfo | null) => ({ info: i, starting: false }),
      (e: unknown) => ({ info: null, starting: infoOf(e).code === STARTING }),
    ),
  ])
  const starting = info.starting || results.some((r) => r.status === 'rejected' && infoOf(r.reason).code === STARTING)
  return { results, info: info.info, starting }
}

/**
 * Asks for the lists, the info and the status at once. A read refused
 * because the backend was still starting is made again once it has
 * started; a failed start returns its status (the lists are then not
 * shown).
 */
export async function loadFirstScreen(src: FirstScreenSources): Promise<FirstScreen> {
  const early = loadOnce(src)
  const status = await waitForStartup(src)
  if (status && !status.ok && status.error) {
    return { failed: status }
  }
  let first = await early
  if (first.starting) first = await loadOnce(src)
  return { failed: null, results: first.results, info: first.info }
}
