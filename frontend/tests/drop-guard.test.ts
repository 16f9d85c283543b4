import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  type DragFacts, type DropDecision, ZONE_ACTIVE_CLASS, carriesFilesOrLinks, decideDrag, installDropGuard,
  isEditable, zoneRoot,
} from '@/utils/dropGuard'

// What WebKitGTK reports in dataTransfer.types (seen in the real window):
// a file manager's drag of files offers only text/uri-list (and text), so
// there is no "Files" type at all; a browser's link is a uri-list too.
const FILES_GTK = ['text/uri-list', 'text/html']
const FILES = ['Files']
const LINK = ['text/uri-list', 'text/plain']
const TEXT = ['text/plain']
const RICH_TEXT = ['text/plain', 'text/html']

describe('decideDrag', () => {
  const facts = (over: Partial<DragFacts>): DragFacts => ({
    types: [], fromPage: false, fileZone: false, editable: false, ...over,
  })
  const cases: [string, Partial<DragFacts>, DropDecision][] = [
    ['files (uri-list only) on the Knowledge panel', { types: FILES_GTK, fileZone: true }, 'zone'],
    ['files ("Files") on the Knowledge panel', { types: FILES, fileZone: true }, 'zone'],
    ['files on the chat', { types: FILES_GTK }, 'refuse'],
    ['files on the message box', { types: FILES_GTK, editable: true }, 'refuse'],
    ['"Files" on the message box', { types: [...FILES, ...TEXT], editable: true }, 'refuse'],
    ['a link on the message box', { types: LINK, editable: true }, 'refuse'],
    ['a link on the sidebar', { types: LINK }, 'refuse'],
    ['text on the message box', { types: TEXT, editable: true }, 'text'],
    ['rich text on a search field', { types: RICH_TEXT, editable: true }, 'text'],
    ['text on the chat', { types: TEXT }, 'refuse'],
    ['text on the Knowledge panel (not a file)', { types: TEXT, fileZone: true }, 'refuse'],
    ['nothing readable on the message box', { types: [], editable: true }, 'refuse'],
    ['a note tab being dragged over the tabs', { types: TEXT, fromPage: true }, 'page'],
    ['a link dragged out of a reply onto the chat', { types: LINK, fromPage: true }, 'page'],
    ['a link dragged out of a reply onto the Knowledge panel', { types: LINK, fromPage: true, fileZone: true }, 'page'],
    ['a selection dragged from a reply into the message box', { types: RICH_TEXT, fromPage: true, editable: true }, 'text'],
  ]
  it.each(cases)('%s', (_name, over, want) => {
    expect(decideDrag(facts(over))).toBe(want)
  })

  it('counts every way a file or a link can be named as one', () => {
    for (const t of ['Files', 'text/uri-list', 'text/x-moz-url', '_NETSCAPE_URL']) expect(carriesFilesOrLinks([t])).toBe(true)
    expect(carriesFilesOrLinks(RICH_TEXT)).toBe(false)
  })
})

describe('the installed guard', () => {
  let uninstall: () => void
  let panel: HTMLElement
  let inner: HTMLElement
  let chat: HTMLElement
  let box: HTMLTextAreaElement

  beforeEach(() => {
    uninstall = installDropGuard(window)
    panel = document.createElement('div')
    panel.style.setProperty('--wails-drop-target', 'drop')
    inner = document.createElement('span')
    panel.appendChild(inner)
    chat = document.createElement('div')
    box = document.createElement('textarea')
    document.body.append(panel, chat, box)
  })
  afterEach(() => {
    uninstall()
    document.body.replaceChildren()
  })

  /** Dispatches a drag event as WebKit does: bubbling, cancelable, with a dataTransfer. */
  function drag(type: string, target: Element, types: string[], dropEffect = 'copy') {
    const e = new Event(type, { bubbles: true, cancelable: true }) as DragEvent
    const dataTransfer = { types, dropEffect, effectAllowed: 'all' }
    Object.defineProperty(e, 'dataTransfer', { value: dataTransfer })
    target.dispatchEvent(e)
    return { prevented: e.defaultPrevented, effect: dataTransfer.dropEffect }
  }

  it('refuses files, links and text dropped outside a drop zone', () => {
    for (const types of [FILES_GTK, FILES, LINK, TEXT]) {
      for (const type of ['dragenter', 'dragover']) {
        expect(drag(type, chat, types), `${type} ${types}`).toEqual({ prevented: true, effect: 'none' })
      }
      expect(drag('drop', chat, types).prevented).toBe(true)
      expect(drag('drop', document.body, types).prevented).toBe(true)
    }
  })

  it('lets the Knowledge panel take files and lights it while they are over it', () => {
    const lit = () => panel.classList.contains(ZONE_ACTIVE_CLASS)
    // Events in WebKit's order: dragenter on the element entered, then
    // dragleave on the one left; nothing while the pointer rests.
    expect(drag('dragenter', panel, FILES_GTK)).toEqual({ prevented: true, effect: 'copy' })
    drag('dragleave', chat, FILES_GTK)
    expect(zoneRoot(inner)).toBe(panel)
    expect(lit()).toBe(true)
    expect(drag('dragover', panel, FILES_GTK)).toEqual({ prevented: true, effect: 'copy' })
    // Moving onto a child keeps it lit, however long the pointer rests there.
    drag('dragenter', inner, FILES_GTK)
    drag('dragleave', panel, FILES_GTK)
    expect(drag('dragover', inner, FILES_GTK)).toEqual({ prevented: true, effect: 'copy' })
    expect(lit()).toBe(true)
    // Leaving it for the chat turns it off …
    drag('dragenter', chat, FILES_GTK)
    drag('dragleave', inner, FILES_GTK)
    expect(lit()).toBe(false)
    // … and so does leaving the window from inside it.
    drag('dragenter', inner, FILES_GTK)
    drag('dragleave', chat, FILES_GTK)
    expect(lit()).toBe(true)
    drag('dragleave', inner, FILES_GTK)
    expect(lit()).toBe(false)
    // The drop is kept by the page (Wails hands the paths to Go); nothing loads.
    drag('dragenter', inner, FILES_GTK)
    drag('dragover', inner, FILES_GTK)
    expect(drag('drop', inner, FILES_GTK).prevented).toBe(true)
    expect(lit()).toBe(false)
  })

  it('leaves dropped text to editable fields, and never files or links', () => {
    const input = document.createElement('input')
    const editable = document.createElement('div')
    Object.defineProperty(editable, 'isContentEditable', { value: true })
    const readOnly = document.createElement('textarea')
    readOnly.readOnly = true
    const checkbox = document.createElement('input')
    checkbox.type = 'checkbox'
    document.body.append(input, editable, readOnly, checkbox)
    for (const el of [box, input, editable]) {
      expect(isEditable(el)).toBe(true)
      expect(drag('dragover', el, TEXT)).toEqual({ prevented: false, effect: 'copy' })
      expect(drag('drop', el, TEXT).prevented).toBe(false)
      expect(drag('dragover', el, FILES_GTK)).toEqual({ prevented: true, effect: 'none' })
      expect(drag('drop', el, LINK).prevented).toBe(true)
    }
    for (const el of [readOnly, checkbox]) {
      expect(isEditable(el)).toBe(false)
      expect(drag('drop', el, TEXT).prevented).toBe(true)
    }
  })

  it("keeps the page's own drags working and refuses what their handlers do not take", () => {
    // A note tab and its strip, as NoteTabStrip wires them (bubble phase).
    const tab = document.createElement('div')
    tab.draggable = true
    const strip = document.createElement('div')
    strip.append(tab)
    document.body.append(strip)
    const seen: string[] = []
    strip.addEventListener('dragover', (e) => {
      seen.push('over:' + e.defaultPrevented)
      e.preventDefault()
      ;(e as DragEvent).dataTransfer!.dropEffect = 'move'
    })
    strip.addEventListener('drop', (e) => {
      seen.push('drop')
      e.preventDefault()
    })
    drag('dragstart', tab, TEXT)
    expect(drag('dragover', tab, TEXT)).toEqual({ prevented: true, effect: 'move' })
    expect(drag('drop', tab, TEXT).prevented).toBe(true)
    expect(seen).toEqual(['over:true', 'drop'])
    // Over the chat nobody takes it: the default (WebKit loading a dragged
    // link) is still prevented, and the effect is left to the page.
    drag('dragstart', tab, LINK)
    expect(drag('dragover', chat, LINK, 'move')).toEqual({ prevented: true, effect: 'move' })
    expect(drag('drop', chat, LINK).prevented).toBe(true)
    // Once the page's drag is over, a drag from outside is refused again.
    drag('dragstart', tab, TEXT)
    drag('dragend', tab, TEXT)
    expect(drag('dragover', chat, TEXT)).toEqual({ prevented: true, effect: 'none' })
  })

  it('runs before any element sees the drag, even one that stops it', () => {
    chat.addEventListener('dragover', (e) => e.stopPropagation())
    chat.addEventListener('drop', (e) => e.stopImmediatePropagation())
    expect(drag('dragover', chat, FILES_GTK).prevented).toBe(true)
    expect(drag('drop', chat, FILES_GTK).prevented).toBe(true)
  })

  it('can be removed', () => {
    uninstall()
    expect(drag('drop', chat, FILES_GTK).prevented).toBe(false)
    uninstall = () => {}
  })
})
