import type ja from './tools-ja'

// Settings → Tools (MCP) (ToolsSection) and the approval buttons of a tool
// call in the activity list, in English; part of en.ts, keys in step with
// tools-ja.ts.
const tools: typeof ja = {
  mcpTools: {
    form: {
      add: 'Add a server…',
      name: 'Name',
      stdio: 'A command (stdio)',
      http: 'A URL (streamable HTTP)',
      command: 'Command',
      args: 'Arguments, one per line',
      env: 'Environment, NAME=value per line',
      cwd: 'Working folder (optional)',
      headers: 'Headers, Name: value per line',
      save: 'Add',
      cancel: 'Cancel',
      badLine: 'This line has no separator: {line}',
    },
    title: 'Tools (MCP)',
    intro: 'Add your own MCP servers (files, GitHub, a browser, a database…) and the model can use their tools during a chat. Paste the JSON you already have: Claude Desktop / Cursor mcpServers, VS Code servers, Claude Code .mcp.json.',
    pastePlaceholder: 'Paste the mcpServers JSON here',
    import: 'Import',
    importOthers: 'Import the others anyway',
    imported: '{n} server(s) added',
    refused: '{name}: {reason}',
    nothingImported: 'Some entries could not be understood, so nothing was changed.',
    none: 'No MCP servers yet.',
    states: {
      starting: 'Starting…',
      ready: 'Ready ({n} tools)',
      failed: 'Failed',
      not_responding: 'Not responding',
      stopped: 'Stopped',
      disabled: 'Off',
    },
    exitCode: 'exit code {code}',
    stderr: 'Error output (last lines)',
    logFile: 'Log: {file}',
    restart: 'Restart',
    remove: 'Remove',
    removeConfirm: 'Remove the MCP server “{name}”?',
    enabled: 'On',
    askFirst: 'Ask before every call',
    alwaysAllow: 'Always allow this server',
    allowDiscord: 'Allowed for Discord',
    destructive: 'asks first',
    modelName: 'Sent to the model as: {name}',
    toolsTitle: 'Tools',
  },
  toolApproval: {
    ask: 'Run this tool?',
    once: 'Allow once',
    always: 'Always for this server',
    deny: 'Deny',
    decided: {
      once: 'Allowed once',
      always: 'Always allowed for this server',
      deny: 'Denied',
    },
  },
}

export default tools
