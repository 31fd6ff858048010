// A server-like heap, written as one snapshot: `node bench/server-heap.js <file> <sessions>`.
// What a long-running HTTP service holds: a Map of sessions (class instances with nested user,
// cart and header objects, distinct and shared strings), an access log of records, per-session
// sockets that are EventEmitters with closure listeners over a context, timers' callbacks, a
// product catalog, and some Buffers. The same arguments give the same heap: every choice comes
// from a seeded generator, never from Math.random or the clock.
import { EventEmitter } from 'node:events'
import { writeHeapSnapshot } from 'node:v8'

const [file, sessionsArg] = process.argv.slice(2)
const SESSIONS = Number(sessionsArg)
if (!file || !Number.isInteger(SESSIONS) || SESSIONS < 0) {
  throw new Error(`Expected <file> <sessions> (a non-negative integer), got ${JSON.stringify(process.argv.slice(2))}`)
}
const PRODUCTS = 5000
const LOG_RECORDS_PER_SESSION = 2
const ROLES = ['reader', 'writer', 'admin', 'billing', 'support', 'audit']
const AGENTS = ['Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0', 'curl/8.5.0', 'okhttp/4.12.0', 'node-fetch/3.3.2']

// mulberry32: a tiny, fast PRNG with a fixed seed, so that runs are repeatable.
let seed = 0x5eed1234
function random () {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const pick = (/** @type {any[]} */ list) => list[Math.floor(random() * list.length)]

class Product {
  constructor (/** @type {number} */ index) {
    this.sku = `SKU-${index.toString(36).padStart(6, '0')}`
    this.title = `Product ${index} ${pick(['lamp', 'chair', 'desk', 'cable', 'phone', 'book'])}`
    this.price = Math.round(random() * 100_000) / 100
    this.tags = [pick(['new', 'sale', 'eco']), pick(['blue', 'red', 'green', 'black'])]
  }
}

class Connection extends EventEmitter {
  constructor (/** @type {number} */ index) {
    super()
    this.remoteAddress = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`
    this.bytesRead = Math.floor(random() * 1e6)
    this.readable = true
  }
}

class Session {
  constructor (/** @type {number} */ index, /** @type {Product[]} */ catalog) {
    this.id = `sess_${index.toString(16).padStart(8, '0')}_${Math.floor(random() * 1e9).toString(36)}`
    this.user = {
      id: 100_000 + index,
      name: `User ${index}`,
      email: `user${index}@example.test`,
      roles: [pick(ROLES), pick(ROLES)],
      preferences: { theme: pick(['dark', 'light']), locale: pick(['en-US', 'de-DE', 'fr-FR', 'ja-JP']) }
    }
    const items = Math.floor(random() * 5)
    this.cart = []
    for (let i = 0; i < items; i++) {
      this.cart.push({ product: pick(catalog), quantity: 1 + Math.floor(random() * 3), addedAt: new Date(1_700_000_000_000 + index * 1000 + i) })
    }
    /** @type {Record<string, string>} */
    this.headers = {
      'user-agent': pick(AGENTS),
      accept: 'application/json',
      'x-request-id': `req-${index}-${Math.floor(random() * 1e12).toString(36)}`
    }
    this.createdAt = 1_700_000_000_000 + index * 1000
    this.score = random() * 10
    this.socket = listen(new Connection(index), this)
    // Some sessions hold a small binary payload, as parsers and TLS sessions do.
    this.buffer = index % 4 === 0 ? Buffer.alloc(256 + (index % 8) * 128, index & 255) : null
  }
}

// The listeners close over the session and a per-connection context, as request handlers do.
function listen (/** @type {Connection} */ socket, /** @type {Session} */ session) {
  const received = []
  let closed = false
  socket.on('data', function onData (chunk) { received.push(chunk); session.score++ })
  socket.on('close', function onClose () { closed = true; return received.length })
  socket.on('error', (error) => { if (!closed) session.headers.error = String(error) })
  return socket
}

const catalog = Array.from({ length: PRODUCTS }, (_, i) => new Product(i))
const sessions = new Map()
const accessLog = []
const timers = []
for (let i = 0; i < SESSIONS; i++) {
  const session = new Session(i, catalog)
  sessions.set(session.id, session)
  for (let r = 0; r < LOG_RECORDS_PER_SESSION; r++) {
    accessLog.push({ at: session.createdAt + r, method: pick(['GET', 'POST', 'PUT']), path: `/api/v1/items/${i * 7 + r}`, status: pick([200, 200, 200, 201, 304, 404, 500]), session: session.id })
  }
  // Idle-timeout callbacks, kept as a server keeps them until the session ends.
  if (i % 2 === 0) timers.push(() => sessions.delete(session.id))
}

Object.assign(globalThis, { server: { catalog, sessions, accessLog, timers } })
// From a fresh tick, so the stack of this module retains nothing extra.
setImmediate(() => writeHeapSnapshot(file))
