import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import ContextMeter from '@/components/context/ContextMeter.vue'
import ContextReportPanel from '@/components/context/ContextReportPanel.vue'
import ReplyContextButton from '@/components/context/ReplyContextButton.vue'
import { normalizeReport, type ContextReport } from '@/api/context'
import { fillLevel, formatTokens, leftOutEntries, segments } from '@/utils/contextMeter'
import { AppError } from '@/api/errors'
import { useAttachmentStore } from '@/stores/attachments'
import { testI18n } from './helpers'

vi.mock('@/api/context', async (orig) => {
  const real = await orig<typeof import('@/api/context')>()
  return { ...real, preview: vi.fn(), stored: vi.fn() }
})
const api = vi.mocked(await import('@/api/context'))

/** A turn on a 10k window whose KB and pinned notes did not fit. */
function overBudget(over: Partial<ContextReport> = {}): ContextReport {
  return normalizeReport({
    model: 'openai/gpt-4o-mini',
    window: 10000,
    output: 1000,
    input: 8550,
    used: 6000,
    prompt: 50,
    message: 150,
    layers: [
      { layer: 'notes', tokens: 300, fullTokens: 300, included: [{ kind: 'note', id: '1', title: 'Runbook' }], leftOut: [] },
      {
        layer: 'pinned_notes', tokens: 2000, fullTokens: 5000,
        included: [{ kind: 'note', id: '1', title: 'Runbook' }],
        leftOut: [
          { kind: 'note', id: '1', title: 'Runbook', reason: 'truncated', kept: 2000, total: 5000, unit: 'tokens' },
          { kind: 'note', id: '2', title: 'Packing list', reason: 'budget', kept: 0, total: 0, unit: '' },
        ],
      },
      {
        layer: 'kb', tokens: 1500, fullTokens: 1500,
        included: [{ kind: 'kb_doc', id: 'travel/passport.md', title: 'Passport' }],
        leftOut: [{ kind: 'kb_doc', id: 'travel/visa.md', title: 'Visa', reason: 'top_k', kept: 0, total: 0, unit: '' }],
      },
      { layer: 'memory', tokens: 0, fullTokens: 0, included: [], leftOut: [] },
    ],
    history: { tokens: 2000, sent: 12, leftOut: 30 },
    ...over,
  } as ContextReport)
}

describe('context meter helpers', () => {
  it('gives one segment per part that used tokens or lost something, sized on the window', () => {
    const segs = segments(overBudget())
    expect(segs.map((s) => s.key)).toEqual(['prompt', 'notes', 'pinned_notes', 'kb', 'history'])
    expect(segs.find((s) => s.key === 'prompt')?.percent).toBeCloseTo(2)
    expect(segs.find((s) => s.key === 'history')).toMatchObject({ tokens: 2000, percent: 20, cut: true })
    expect(segs.find((s) => s.key === 'notes')?.cut).toBe(false)
    expect(segs.find((s) => s.key === 'pinned_notes')?.cut).toBe(true)
  })

  it('lists every left-out item with its layer and reason, the history last', () => {
    const list = leftOutEntries(overBudget())
    expect(list.map((e) => [e.layer, e.title || e.reason, e.reason])).toEqual([
      ['pinned_notes', 'Runbook', 'truncated'],
      ['pinned_notes', 'Packing list', 'budget'],
      ['kb', 'Visa', 'top_k'],
      ['history', 'history', 'history'],
    ])
    expect(list[3].count).toBe(30)
  })

  it('grades the fill and shortens figures', () => {
    expect(fillLevel(overBudget({ used: 7000 }))).toBe('high')
    expect(fillLevel(overBudget({ used: 1000 }))).toBe('ok')
    expect(fillLevel(overBudget({ tooLong: true }))).toBe('over')
    expect([formatTokens(950), formatTokens(12345), formatTokens(128000), formatTokens(1000)]).toEqual(['950', '12k', '128k', '1k'])
  })

  it('counts the entries a long layer did not list', () => {
    const r = overBudget()
    r.layers[1].leftOutMore = 40
    const list = leftOutEntries(r)
    expect(list.find((e) => e.reason === 'more')).toMatchObject({ layer: 'pinned_notes', count: 40 })
    const w = mount(ContextReportPanel, { props: { report: r, title: 'x' }, global: { plugins: [testI18n()] } })
    expect(w.get('[data-testid="context-left-out"]').text()).toContain('… and 40 more')
  })

  it('shows the tool definitions as their own part of the bar and of what was sent (issue 22)', () => {
    const r = overBudget({ tools: 1100 } as never)
    expect(segments(r).map((s) => s.key)).toContain('tools')
    const w = mount(ContextReportPanel, { props: { report: r, title: 'x' }, global: { plugins: [testI18n()] } })
    expect(w.get('[data-testid="context-sent-tools"]').text()).toContain('1.1k tokens')
    expect(segments(overBudget()).map((s) => s.key)).not.toContain('tools')
  })

  it('keeps the attachments part of a report: its segment and its line of what was sent (issue 25)', () => {
    // A report as the adapter gets it from Go: normalizeReport dropped the
    // field, so the files never showed in the bar or the breakdown.
    const r = overBudget({ attachments: 3400 } as never)
    expect(r.attachments).toBe(3400)
    expect(segments(r).find((s) => s.key === 'attachments')).toMatchObject({ tokens: 3400 })
    const w = mount(ContextReportPanel, { props: { report: r, title: 'x' }, global: { plugins: [testI18n()] } })
    expect(w.get('[data-testid="context-sent-attachments"]').text()).toContain('3.4k tokens')
    expect(normalizeReport({ layers: [] } as never).attachments).toBe(0)
  })

  it('turns Go nulls into empty lists', () => {
    const r = normalizeReport({ window: 8, layers: [{ layer: 'kb', tokens: 1, fullTokens: 1, included: null, leftOut: null }] } as never)
    expect(r.layers[0].included).toEqual([])
    expect(r.layers[0].leftOut).toEqual([])
    expect(r.history).toEqual({ tokens: 0, sent: 0, leftOut: 0 })
  })
})

describe('tools left out (issue 24)', () => {
  it('lists the MCP tools that were not sent, marks the tools part as cut, and reads old reports', () => {
    const r = normalizeReport({
      model: 'openai/gpt-4o-mini', window: 8000, output: 1000, input: 6800, used: 3000, prompt: 50, message: 20, tools: 1200,
      toolsSent: 12,
      toolsLeftOut: [
        { kind: 'tool', id: 'github__create_issue', title: 'github: create_issue', reason: 'budget', kept: 0, total: 0, unit: '' },
        { kind: 'tool', id: 'fs__write_file', title: 'filesystem: write_file', reason: 'tool_count', kept: 0, total: 0, unit: '' },
      ],
    } as Partial<ContextReport>)
    expect(segments(r).find((s) => s.key === 'tools')).toMatchObject({ tokens: 1200, cut: true })
    const left = leftOutEntries(r).filter((e) => e.layer === 'tools')
    expect(left.map((e) => [e.id, e.reason])).toEqual([['github__create_issue', 'budget'], ['fs__write_file', 'tool_count']])
    const w = mount(ContextReportPanel, { props: { report: r, title: 'x' }, global: { plugins: [testI18n()] } })
    expect(w.text()).toContain('github: create_issue')
    expect(w.text()).toContain('left out: more tools than the provider takes')
    expect(w.text()).toContain('Tool definitions')
    const old = normalizeReport({ tools: 100, layers: [] } as Partial<ContextReport>)
    expect(old.toolsLeftOut).toEqual([])
    expect(segments(old).find((s) => s.key === 'tools')?.cut).toBe(false)
  })
})

describe('ContextReportPanel', () => {
  it('shows what was left out first, with why, and what was sent', () => {
    const w = mount(ContextReportPanel, { props: { report: overBudget(), title: 'Context' }, global: { plugins: [testI18n()] } })
    const left = w.findAll('[data-testid="context-left-out-item"]').map((li) => li.text())
    expect(left).toHaveLength(4)
    expect(left[0]).toContain('Pinned notes')
    expect(left[0]).toContain('Runbook')
    expect(left[0]).toContain('cut to 2k of 5k tokens')
    expect(left[1]).toContain('Packing list')
    expect(left[1]).toContain('no room in the budget')
    expect(left[2]).toContain('travel/visa.md')
    expect(left[2]).toContain('LOCAL_KB_TOP_K')
    expect(left[3]).toContain('The oldest 30 messages of the conversation')
    const sent = w.get('[data-testid="context-sent"]').text()
    expect(sent).toContain('Passport')
    expect(sent).toContain('12 messages')
    expect(w.find('[data-testid="context-nothing-left-out"]').exists()).toBe(false)
  })

  it('says plainly when nothing was left out, in Japanese too', () => {
    const clean = overBudget({ layers: [], history: { tokens: 10, sent: 1, leftOut: 0 } } as never)
    const w = mount(ContextReportPanel, { props: { report: clean, title: 'x' }, global: { plugins: [testI18n('ja')] } })
    expect(w.get('[data-testid="context-nothing-left-out"]').text()).toContain('省いたものはありません')
  })
})

describe('ContextMeter', () => {
  beforeEach(() => {
    setActivePinia(createPinia()) // the new chat's assistant (stores/assistants)
    vi.useFakeTimers()
    api.preview.mockReset()
  })
  afterEach(() => vi.useRealTimers())

  const mountMeter = (draft = '') =>
    mount(ContextMeter, {
      props: { sessionId: 's1', draft, model: '' },
      global: { plugins: [testI18n()] },
      attachTo: document.body,
    })

  it('renders segments, used / window and the left-out count, and opens the list on click', async () => {
    api.preview.mockResolvedValue(overBudget())
    const w = mountMeter()
    await vi.runAllTimersAsync()
    expect(api.preview).toHaveBeenCalledWith('s1', '', '', undefined, [])
    expect(w.findAll('[data-testid="context-segment"]').map((s) => s.attributes('data-layer'))).toEqual([
      'prompt', 'notes', 'pinned_notes', 'kb', 'history',
    ])
    expect(w.get('[data-testid="context-meter-label"]').text()).toBe('6k / 10k')
    expect(w.get('[data-testid="context-meter-left-out"]').text()).toContain('4')
    expect(w.find('[data-testid="context-panel"]').exists()).toBe(false)
    await w.get('[data-testid="context-meter-bar"]').trigger('click')
    expect(w.findAll('[data-testid="context-left-out-item"]')).toHaveLength(4)
    w.unmount()
  })

  it('measures again when the chat shows another list of messages (another version chosen)', async () => {
    api.preview.mockResolvedValue(overBudget())
    const w = mountMeter()
    await vi.runAllTimersAsync()
    const calls = api.preview.mock.calls.length
    await w.setProps({ history: [{ id: 1 }, { id: 2 }] })
    await vi.runAllTimersAsync()
    expect(api.preview.mock.calls.length).toBe(calls + 1)
    w.unmount()
  })

  it('measures again with the files waiting in the message box when a chip is added or removed', async () => {
    api.preview.mockResolvedValue(overBudget())
    const w = mountMeter()
    await vi.runAllTimersAsync()
    const files = useAttachmentStore()
    const chip = { id: 'f1', name: 'a.md', kind: 'text', mime: 'text/plain', size: 3, width: 0, height: 0, chars: 3, pages: 0, thumbnail: '' }
    files.restore('s1', [chip])
    await vi.runAllTimersAsync()
    expect(api.preview).toHaveBeenLastCalledWith('s1', '', '', undefined, ['f1'])
    files.forget('s1', ['f1'])
    await vi.runAllTimersAsync()
    expect(api.preview).toHaveBeenLastCalledWith('s1', '', '', undefined, [])
    w.unmount()
  })

  it('says when the staged documents do not fit, counts them in full, and leaves Send enabled for the offer (issue 25)', async () => {
    // A 300-page PDF staged for a small model: the meter read the draft
    // alone ("nothing was left out") — now it counts the document, marks
    // the part as cut and says Send brings the offer, without blocking it.
    api.preview.mockResolvedValue(overBudget({ used: 24000, attachments: 18000, attachmentsTooLong: true } as never))
    const w = mountMeter('what does it say?')
    await vi.runAllTimersAsync()
    expect(w.get('[data-testid="context-meter-label"]').text()).toBe('24k / 10k')
    expect(w.get('[data-testid="context-meter"]').classes()).toContain('over')
    const seg = w.findAll('[data-testid="context-segment"]').find((s) => s.attributes('data-layer') === 'attachments')
    expect(seg?.classes()).toContain('cut')
    expect(w.get('[data-testid="context-meter-files-too-long"]').text()).toContain('Send offers the part that fits')
    expect(w.find('[data-testid="context-meter-blocked"]').exists()).toBe(false)
    expect(w.emitted('blocked')?.at(-1)).toEqual([''])
    await w.get('[data-testid="context-meter-bar"]').trigger('click')
    expect(w.get('[data-testid="context-attachments-too-long"]').text()).toContain('18k tokens')
    // Listed as not fitting, not as sent (the popup contradicted itself:
    // an empty "left out" heading, the documents under "sent").
    const left = w.findAll('[data-testid="context-left-out-item"]').map((li) => li.text())
    expect(left[0]).toContain('Attached files and images')
    expect(left[0]).toContain('Send offers the part that fits')
    expect(w.find('[data-testid="context-sent-attachments"]').exists()).toBe(false)
    expect(w.find('[data-testid="context-nothing-left-out"]').exists()).toBe(false)
    w.unmount()
  })

  it('measures the draft 300 ms after the last keystroke, once', async () => {
    api.preview.mockResolvedValue(overBudget())
    const w = mountMeter()
    await vi.runAllTimersAsync()
    api.preview.mockClear()
    await w.setProps({ draft: 'h' })
    await vi.advanceTimersByTimeAsync(200)
    await w.setProps({ draft: 'he' })
    await vi.advanceTimersByTimeAsync(200)
    await w.setProps({ draft: 'hello' })
    expect(api.preview).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(300)
    expect(api.preview).toHaveBeenCalledTimes(1)
    expect(api.preview).toHaveBeenLastCalledWith('s1', 'hello', '', undefined, [])
    w.unmount()
  })

  it('keeps the newest answer when an older measurement returns late', async () => {
    let resolveOld!: (r: ContextReport) => void
    api.preview.mockImplementationOnce(() => new Promise((r) => (resolveOld = r)))
    api.preview.mockResolvedValueOnce(overBudget({ used: 7000 }))
    const w = mountMeter()
    await w.setProps({ sessionId: 's2' })
    await vi.runAllTimersAsync()
    resolveOld(overBudget({ used: 100 }))
    await vi.runAllTimersAsync()
    expect(w.get('[data-testid="context-meter-label"]').text()).toBe('7k / 10k')
    w.unmount()
  })

  it('stays empty without a model, and says so when measuring fails', async () => {
    api.preview.mockRejectedValueOnce(new AppError({ code: 'chat.noModel', params: {}, message: 'no model' }))
    const w = mountMeter()
    await vi.runAllTimersAsync()
    expect(w.find('[data-testid="context-meter-bar"]').exists()).toBe(false)
    expect(w.find('[data-testid="context-meter-failed"]').exists()).toBe(false)
    api.preview.mockRejectedValueOnce(new Error('boom'))
    await w.setProps({ sessionId: 's3' })
    await vi.runAllTimersAsync()
    expect(w.find('[data-testid="context-meter-failed"]').exists()).toBe(true)
    w.unmount()
  })

  it('waits while a turn streams', async () => {
    api.preview.mockResolvedValue(overBudget())
    const w = mount(ContextMeter, {
      props: { sessionId: 's1', draft: '', model: '', busy: true },
      global: { plugins: [testI18n()] },
    })
    await vi.runAllTimersAsync()
    expect(api.preview).not.toHaveBeenCalled()
    await w.setProps({ busy: false })
    await vi.runAllTimersAsync()
    expect(api.preview).toHaveBeenCalledTimes(1)
  })
})

describe('ReplyContextButton', () => {
  it('loads the stored report on the first click and says when none was recorded', async () => {
    api.stored.mockResolvedValueOnce(overBudget()).mockResolvedValueOnce(null)
    const a = mount(ReplyContextButton, { props: { messageId: 7 }, global: { plugins: [testI18n()] } })
    expect(api.stored).not.toHaveBeenCalled()
    await a.get('[data-testid="reply-context-button"]').trigger('click')
    await vi.waitFor(() => expect(a.find('[data-testid="context-panel"]').exists()).toBe(true))
    expect(api.stored).toHaveBeenCalledWith(7)
    expect(a.findAll('[data-testid="context-left-out-item"]')).toHaveLength(4)

    const b = mount(ReplyContextButton, { props: { messageId: 8 }, global: { plugins: [testI18n()] } })
    await b.get('[data-testid="reply-context-button"]').trigger('click')
    await vi.waitFor(() => expect(b.find('[data-testid="reply-context-none"]').exists()).toBe(true))
  })
})
