import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import LogDetailView from '@/components/logs/LogDetailView.vue'
import type { LogDetail } from '@/api/types'
import { testI18n } from './helpers'

const log = (over: Partial<LogDetail>): LogDetail => ({
  id: 1, sessionId: '', model: 'openai/x', purpose: 'turn', error: '', latencyMs: 10, createdAt: '2026-01-01T00:00:00Z',
  preview: '', promptTokens: 0, completionTokens: 0, requestJson: '{}', responseText: '', ...over,
})

describe('LogDetailView', () => {
  it('words a logged error by its code and keeps the stored English beside it', () => {
    const error = 'cancelled (stopped by the user)'
    const w = mount(LogDetailView, {
      props: { log: log({ error, errorInfo: { code: 'llm.cancelled', message: error } }) },
      global: { plugins: [testI18n('ja')] },
    })
    const text = w.get('[data-testid="log-error"]').text()
    expect(text).toContain('キャンセルされました（ユーザーが停止しました）')
    expect(text).toContain(error)
  })

  it('shows an error logged before codes existed as it was stored', () => {
    const w = mount(LogDetailView, {
      props: { log: log({ error: 'provider returned 500: boom' }) },
      global: { plugins: [testI18n('ja')] },
    })
    expect(w.get('[data-testid="log-error"]').text()).toContain('provider returned 500: boom')
  })
})
