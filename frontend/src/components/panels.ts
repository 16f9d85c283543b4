// The side panels the header opens, as one table: the App shell renders the
// open one from it (title, component, width) instead of a hand-written chain.
// "kb" is the local knowledge base; "learned" is the knowledge learned from
// web searches (the word "knowledge" alone means that one in code).
import type { Component } from 'vue'
import AssistantsPanel from '@/components/assistants/AssistantsPanel.vue'
import ChatSettingsPanel from '@/components/assistants/ChatSettingsPanel.vue'
import KBPanel from '@/components/kb/KBPanel.vue'
import LearnedPanel from '@/components/knowledge/LearnedPanel.vue'
import LogViewer from '@/components/logs/LogViewer.vue'
import MemoryPanel from '@/components/memory/MemoryPanel.vue'
import RemindersPanel from '@/components/reminders/RemindersPanel.vue'
import SettingsPanel from '@/components/settings/SettingsPanel.vue'

export type Panel = 'settings' | 'logs' | 'memory' | 'kb' | 'reminders' | 'learned' | 'chat' | 'assistants'

export interface PanelSpec {
  /** The i18n key of the panel's title. */
  title: string
  component: Component
  /** Two-pane panels (a tree or list beside a document) get the wide sheet. */
  wide?: boolean
}

export const PANELS: Record<Panel, PanelSpec> = {
  settings: { title: 'nav.settings', component: SettingsPanel },
  logs: { title: 'nav.logs', component: LogViewer },
  memory: { title: 'nav.memory', component: MemoryPanel },
  kb: { title: 'kb.title', component: KBPanel, wide: true },
  reminders: { title: 'nav.reminders', component: RemindersPanel },
  learned: { title: 'learned.title', component: LearnedPanel, wide: true },
  chat: { title: 'chatSettings.title', component: ChatSettingsPanel },
  assistants: { title: 'assistants.title', component: AssistantsPanel },
}
