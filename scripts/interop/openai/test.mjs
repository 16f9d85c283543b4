// Talks to a running `playchat serve` with the official openai npm package,
// as another ecosystem's client would (issue 23). scripts/e2e-api.sh starts
// fakellm and playchat serve and runs this with:
//   PLAYCHAT_API_URL    the API's base URL, ending in /v1
//   PLAYCHAT_API_TOKEN  its token
//   PLAYCHAT_KB_DOC     the path of a knowledge-base document the server has
//                       (relative to the KB folder), found by PLAYCHAT_KB_QUERY
// Prints one "ok <check>" line per check; exits 1 at the first failure.
import OpenAI from 'openai'

const baseURL = process.env.PLAYCHAT_API_URL
const apiKey = process.env.PLAYCHAT_API_TOKEN
const kbDoc = process.env.PLAYCHAT_KB_DOC
const kbQuery = process.env.PLAYCHAT_KB_QUERY
if (!baseURL || !apiKey || !kbDoc || !kbQuery) {
  console.error('interop: set PLAYCHAT_API_URL, PLAYCHAT_API_TOKEN, PLAYCHAT_KB_DOC and PLAYCHAT_KB_QUERY')
  process.exit(2)
}
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 20_000 })
const PLAIN = 'openai/fake-chat'
const ALIAS = 'playchat/openai/fake-chat'

function check(cond, what, detail) {
  if (!cond) {
    console.error(`interop: FAIL: ${what}${detail === undefined ? '' : ': ' + JSON.stringify(detail)}`)
    process.exit(1)
  }
  console.log(`ok ${what}`)
}

async function expectError(what, fn, status, code) {
  try {
    await fn()
  } catch (e) {
    check(e instanceof OpenAI.APIError && e.status === status && (!code || e.code === code), what,
      { name: e?.constructor?.name, status: e?.status, code: e?.code, message: e?.message })
    return e
  }
  check(false, what, 'no error')
}

// Models: the list, and an id with slashes (the SDK sends it %2F-escaped).
const ids = []
for await (const m of client.models.list()) {
  ids.push(m.id)
  if (m.object !== 'model' || typeof m.created !== 'number' || !m.owned_by) check(false, 'model shape', m)
}
check(ids.includes(PLAIN) && ids.includes(ALIAS), 'models.list has the model and its playchat/ alias', ids)
const one = await client.models.retrieve(ALIAS)
check(one.id === ALIAS && one.owned_by === 'playchat', 'models.retrieve with slashes in the id', one)

// Non-streamed, a plain model passed on to the provider.
const plain = await client.chat.completions.create({
  model: PLAIN, messages: [{ role: 'user', content: 'hello' }], temperature: 0.2,
})
check(plain.object === 'chat.completion' && plain.choices[0].message.content === 'fake reply: hello' &&
  plain.choices[0].finish_reason === 'stop', 'a non-streamed completion', plain)
check(plain.usage && plain.usage.total_tokens > 0, 'usage in a non-streamed completion', plain.usage)

// Streamed, with the usage chunk.
const stream = await client.chat.completions.create({
  model: PLAIN, messages: [{ role: 'user', content: 'stream please' }], stream: true,
  stream_options: { include_usage: true },
})
let text = ''
let finish = null
let usage = null
for await (const chunk of stream) {
  for (const c of chunk.choices) {
    text += c.delta?.content ?? ''
    if (c.finish_reason) finish = c.finish_reason
  }
  if (chunk.usage) usage = chunk.usage
}
check(text === 'fake reply: stream please' && finish === 'stop', 'a streamed completion', { text, finish })
check(usage && usage.total_tokens > 0, 'the usage chunk of a stream', usage)

// A playchat/ model: its context holds the knowledge-base document.
const alias = await client.chat.completions.create({
  model: ALIAS, messages: [{ role: 'system', content: 'Answer briefly.' }, { role: 'user', content: kbQuery }],
})
const sources = alias.x_playchat_sources ?? []
check(alias.choices[0].message.content.startsWith('fake reply:'), 'a playchat/ model answers', alias.choices[0])
check(sources.some((s) => s.path === kbDoc), 'x_playchat_sources names the knowledge-base document', sources)

// The same, streamed: the sources come on the finish chunk.
const aliasStream = await client.chat.completions.create({
  model: ALIAS, messages: [{ role: 'user', content: kbQuery }], stream: true,
})
let streamedSources = []
for await (const chunk of aliasStream) {
  if (chunk.x_playchat_sources) streamedSources = chunk.x_playchat_sources
}
check(streamedSources.some((s) => s.path === kbDoc), 'a streamed playchat/ reply names its sources', streamedSources)

// Errors, as the SDK's own error classes.
const wrong = new OpenAI({ baseURL, apiKey: 'wrong-token-0123456789', maxRetries: 0 })
const e401 = await expectError('401 for a wrong token',
  () => wrong.chat.completions.create({ model: PLAIN, messages: [{ role: 'user', content: 'x' }] }), 401, 'invalid_api_key')
check(e401 instanceof OpenAI.AuthenticationError, '401 is an AuthenticationError')
const e404 = await expectError('404 for an unknown model',
  () => client.chat.completions.create({ model: 'nosuch/model', messages: [{ role: 'user', content: 'x' }] }), 404, 'model_not_found')
check(e404 instanceof OpenAI.NotFoundError && e404.param === 'model', '404 is a NotFoundError naming the model param')
await expectError('404 for an unknown model, streamed',
  () => client.chat.completions.create({ model: 'nosuch/model', messages: [{ role: 'user', content: 'x' }], stream: true }), 404, 'model_not_found')
await expectError('404 for an unknown model id', () => client.models.retrieve('nosuch/model'), 404, 'model_not_found')
await expectError('413 for a body over 8 MiB',
  () => client.chat.completions.create({ model: PLAIN, messages: [{ role: 'user', content: 'a'.repeat(9 << 20) }] }), 413, 'request_too_large')

// A client that gives up mid-stream: the next request still works.
const ac = new AbortController()
const long = await client.chat.completions.create({
  model: PLAIN, messages: [{ role: 'user', content: 'long' }], stream: true,
}, { signal: ac.signal })
try {
  for await (const _ of long) { ac.abort() }
} catch (e) {
  if (!(e instanceof OpenAI.APIUserAbortError) && e?.name !== 'AbortError') throw e
}
const after = await client.chat.completions.create({ model: PLAIN, messages: [{ role: 'user', content: 'again' }] })
check(after.choices[0].message.content === 'fake reply: again', 'a request after an aborted stream')
console.log('interop: all checks passed')
