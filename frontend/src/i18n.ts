import { createI18n } from 'vue-i18n'
import en from './locales/en'
import ja from './locales/ja'

export type Locale = 'ja' | 'en'
export const LOCALES: Locale[] = ['ja', 'en']
const STORAGE_KEY = 'playchat.locale'

export const i18n = createI18n<[typeof ja], Locale, false>({
  legacy: false,
  locale: 'ja',
  fallbackLocale: 'en',
  messages: { ja, en },
  missingWarn: false,
  fallbackWarn: false,
})

function asLocale(v: string | null | undefined): Locale | null {
  if (!v) return null
  const l = v.toLowerCase()
  if (l.startsWith('ja')) return 'ja'
  if (l.startsWith('en')) return 'en'
  return null
}

/** The language the user picked in Settings, or null to follow the OS. */
export function storedLocale(): Locale | null {
  try {
    return asLocale(localStorage.getItem(STORAGE_KEY))
  } catch {
    return null
  }
}

let osLocale: Locale = asLocale(typeof navigator !== 'undefined' ? navigator.language : '') ?? 'en'

function apply(l: Locale) {
  i18n.global.locale.value = l
  if (typeof document !== 'undefined') document.documentElement.lang = l
}

/** Starts with the stored choice, else the OS locale the backend reported, else the browser's. */
export function initLocale(systemLocale?: string | null) {
  osLocale = asLocale(systemLocale) ?? osLocale
  apply(storedLocale() ?? osLocale)
}

/** Switches the language; null goes back to following the OS. */
export function setLocale(l: Locale | null) {
  try {
    if (l) localStorage.setItem(STORAGE_KEY, l)
    else localStorage.removeItem(STORAGE_KEY)
  } catch {
    // storage unavailable: the choice lasts for this run only
  }
  apply(l ?? osLocale)
}

export function currentLocale(): Locale {
  return i18n.global.locale.value as Locale
}
