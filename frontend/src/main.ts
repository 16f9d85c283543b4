import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import { i18n, initLocale } from './i18n'
import './styles/base.css'
import './styles/markdown.css'
import { guardFileDrops } from './utils/kbDrop'

// The browser language until SystemService reports UI_LANGUAGE and the OS locale.
initLocale(null)

// Files dragged in from outside are taken only by the Knowledge panel.
guardFileDrops(window)

createApp(App).use(createPinia()).use(i18n).mount('#app')
