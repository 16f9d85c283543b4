// An error that ends the window's use of the backend (issue 21): a start
// that failed (a damaged database, one of a newer playchat, any other
// start-up failure), or damage found while running (store.damaged from any
// call or turn). App.vue shows StartupErrorScreen instead of the chat.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { ErrorInfo } from '@/api/errors'

/** Codes that mean the database must not be used any further. */
export const FATAL_CODES = new Set(['store.damaged', 'store.newerSchema'])

export const useFatalStore = defineStore('fatal', () => {
  const error = ref<ErrorInfo | null>(null)
  /** The data folder, from the start-up status or the error's params. */
  const dataDir = ref('')
  /** True when the backend never started (false: damage found while running). */
  const atStartup = ref(false)

  /** Shows the error screen for info (the first report wins). */
  function report(info: ErrorInfo, opts: { dataDir?: string; atStartup?: boolean } = {}) {
    if (error.value) return
    error.value = info
    const dir = opts.dataDir || (typeof info.params?.dir === 'string' ? info.params.dir : '')
    dataDir.value = dir
    atStartup.value = opts.atStartup ?? false
  }

  /** Reports info when its code means the database must not be used further. */
  function check(info: ErrorInfo) {
    if (FATAL_CODES.has(info.code)) report(info)
  }

  return { error, dataDir, atStartup, report, check }
})
