import type ja from './interop-ja'

// Settings → Use from other tools (InteropSection) and the knowledge-base
// browser's marks of learned documents, in English; part of en.ts, keys in
// step with interop-ja.ts.
const interop: typeof ja = {
  interop: {
    intro: 'MCP clients such as Claude Desktop, VS Code and Cursor can use playchat’s knowledge base, chat history, long-term memories and learned knowledge. Read-only by default.',
    httpRunning: 'MCP server over HTTP: running at {url}',
    httpOff: 'MCP server over HTTP: off (the stdio configurations work without it)',
    httpFailed: 'The MCP server over HTTP could not start: {reason}',
    token: 'Token',
    showToken: 'Show',
    hideToken: 'Hide',
    copyToken: 'Copy',
    rotateToken: 'New token',
    rotateConfirm: 'A new token stops every tool that uses the current one until you give it the new one. Make a new token?',
    rotated: 'The token is new: update it in your other tools.',
    noToken: 'No token yet (switch the HTTP server on and save: one is made)',
    configsTitle: 'Configurations to copy',
    file: 'Goes in: {file}',
    copy: 'Copy',
    copied: 'Copied',
    copyFailed: 'Could not copy',
    clients: {
      'claude-desktop': 'Claude Desktop',
      vscode: 'VS Code',
      cursor: 'Cursor',
      'claude-code': 'Claude Code',
      'vscode-http': 'VS Code (HTTP)',
      'open-webui': 'Open WebUI (MCP)',
    },
    test: 'Test',
    testing: 'Testing…',
    testOk: '{transport}: {tools} tools, {domains} folders ({ms} ms)',
    usesSaved: 'The test and the configurations use the saved settings: save your changes first.',
    writeOn: 'Writing: allowed (write_note and append_learning offered)',
    writeOff: 'Writing: not allowed (read-only)',
    notesOn: 'Notes: shared',
    notesOff: 'Notes: not shared',
  },
  learnedDoc: {
    badge: 'learned',
    badgeTitle: 'Written by another tool through append_learning',
    title: 'Provenance',
    source: 'Source: {type}',
    sourceId: 'Id: {id}',
    client: 'Client: {client}',
    confidence: 'Confidence: {percent}%',
    derivedFrom: 'Derived from:',
    createdAt: 'Created: {time}',
    edited: 'You edited it (playchat never overwrites it)',
  },
}
export default interop
