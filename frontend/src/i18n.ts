import { createI18n } from 'vue-i18n'
import en from './locales/en'
import ja from './locales/ja'

export type Locale = 'ja' | 'en'
export const LOCALES: Locale[] = ['ja', 'en']
/** The UI_LANGUAGE setting: follow the OS, or a fixed language. */
export type LanguageChoice = 'auto' | Locale
// Where earlier versions kept the choice (the webview's storage, shared by
// every data dir): moved once into UI_LANGUAGE by startLocale, then removed.
const LEGACY_STORAGE_KEY = 'playchat.locale'

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

/** A UI_LANGUAGE value as a choice; anything but ja/en is "auto". */
export function languageChoice(v: string | null | undefined): LanguageChoice {
  return v === 'ja' || v === 'en' ? v : 'auto'
}

let osLocale: Locale = asLocale(typeof navigator !== 'undefined' ? navigator.language : '') ?? 'en'
let choice: LanguageChoice = 'auto'

function apply(l: Locale) {
  i18n.global.locale.value = l
  if (typeof document !== 'undefined') document.documentElement.lang = l
}

/**
 * Starts with the UI_LANGUAGE setting of the data dir (SystemService.Info's
 * uiLanguage), else the OS locale the backend reported, else the browser's.
 */
export function initLocale(systemLocale?: string | null, uiLanguage?: string | null) {
  osLocale = asLocale(systemLocale) ?? osLocale
  choice = languageChoice(uiLanguage)
  apply(choice === 'auto' ? osLocale : choice)
}

/** Reads and removes the choice an earlier version left in the webview's storage. */
function takeLegacyChoice(): Locale | null {
  try {
    const v = asLocale(localStorage.getItem(LEGACY_STORAGE_KEY))
    localStorage.removeItem(LEGACY_STORAGE_KEY)
    return v
  } catch {
    return null
  }
}

/**
 * Starts the window's language from SystemService.Info (null when it failed).
 * A language picked in an earlier version (kept in the webview's storage)
 * becomes this data dir's UI_LANGUAGE through `save`, once, when the data dir
 * has no choice of its own; the storage key is removed either way, so a data
 * dir created later starts from the OS locale.
 */
export function startLocale(
  info: { locale?: string; uiLanguage?: string } | null,
  save: (l: Locale) => Promise<unknown>,
) {
  // without the backend there is nowhere to move it yet: keep it for the next start
  const legacy = info ? takeLegacyChoice() : null
  let ui = info?.uiLanguage
  if (legacy && languageChoice(ui) === 'auto') {
    ui = legacy
    save(legacy).catch(() => {})
  }
  initLocale(info?.locale, ui)
}

/**
 * Shows the window in a language; "auto" (or null) follows the OS. Saving the
 * choice is the settings service's job (UI_LANGUAGE), so it stays with the data dir.
 */
export function setLocale(l: LanguageChoice | null) {
  choice = l ?? 'auto'
  apply(choice === 'auto' ? osLocale : choice)
}

/** The current UI_LANGUAGE choice. */
export function currentChoice(): LanguageChoice {
  return choice
}

export function currentLocale(): Locale {
  return i18n.global.locale.value as Locale
}
