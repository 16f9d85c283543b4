import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import { i18n, initLocale } from './i18n'
import './styles/base.css'
import './styles/markdown.css'

// The stored choice or the browser language until SystemService reports the OS locale.
initLocale(null)

createApp(App).use(createPinia()).use(i18n).mount('#app')
