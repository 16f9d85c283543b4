import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import { i18n, initLocale } from './i18n'
import './styles/base.css'
import './styles/markdown.css'
import { logError } from './api/system'
import { reportBlockedLoads } from './utils/blockedLoads'
import { installDropGuard } from './utils/dropGuard'

// The browser language until SystemService reports UI_LANGUAGE and the OS locale.
initLocale(null)

// Nothing dropped anywhere on the window may make the web view load it:
// drop zones take what they accept, the rest of the window ignores drops
// (utils/dropGuard.ts; the UI process refuses such navigations too).
installDropGuard(window)

// The window loads nothing from outside the app (csp.ts); a load the policy
// had to refuse is reported (utils/blockedLoads.ts).
reportBlockedLoads(document, logError)

createApp(App).use(createPinia()).use(i18n).mount('#app')
