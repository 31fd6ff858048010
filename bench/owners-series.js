// Three snapshots of an Express service with thousands of leaking owners, for the diff benchmark:
// `node --expose-gc bench/owners-series.js <dir> [<users>] [<per round>] [<plans>]`.
//
// The service keeps one record per user, each with its own EventEmitter, made at start-up. Every
// request to /users/:id/feed subscribes to that user's `update` event and never unsubscribes (a
// listener per request, held by the user's emitter: thousands of old owners that each grow), and
// starts a presence heartbeat with setInterval that it never clears (a Timeout per request, its
// callback holding the request's state). The delay depends on the user's plan (one of <plans>,
// default 40), so the timers fill that many of Node's timer lists. Requests come from this process over fresh loopback connections: a
// warm-up round, then two equal rounds, a snapshot after each (<dir>/1.heapsnapshot, 2, 3).
// Defaults (2,500 users, 5,000 requests a round) give files of about 14, 20 and 26 MB on Node 20.
import { EventEmitter } from 'node:events'
import { request } from 'node:http'
import { join } from 'node:path'
import { writeHeapSnapshot } from 'node:v8'
import express from 'express'

const [dir, usersArg = '2500', perRoundArg = '5000', plansArg = '40'] = process.argv.slice(2)
const USERS = Number(usersArg)
const PER_ROUND = Number(perRoundArg)
const PLANS = Number(plansArg)
if (!dir || !(USERS >= 1) || !(PER_ROUND >= 1) || !(PLANS >= 1)) {
  throw new Error(`Expected <dir> [<users>] [<per round>] [<plans>], got ${JSON.stringify(process.argv.slice(2))}`)
}
const WARMUP = Math.ceil(PER_ROUND / 5)
const CONCURRENCY = 16

const users = new Map()
for (let id = 0; id < USERS; id++) {
  const events = new EventEmitter()
  events.setMaxListeners(0)
  users.set(String(id), { id, name: `user ${id}`, plan: id % PLANS, events, lastSeen: 0 })
}

const app = express()
app.get('/users/:id/feed', (req, res) => {
  const user = users.get(req.params.id)
  if (!user) return res.status(404).end()
  const state = { url: req.originalUrl, agent: req.get('user-agent') ?? '', since: Date.now(), seen: [] }
  user.events.on('update', (update) => { state.seen.push(update) }) // leak: a listener per request
  setInterval(() => { user.lastSeen = Date.now() }, 60_000 + user.plan * 1000) // leak: a timer per request
  res.json({ id: user.id, name: user.name, plan: user.plan })
})

const server = app.listen(0, '127.0.0.1')
await new Promise((resolve) => server.once('listening', resolve))
const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())

let next = 0
for (let k = 1; k <= 3; k++) {
  const end = next + (k === 1 ? WARMUP : PER_ROUND)
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < end) await get(`/users/${(next++ * 7919) % USERS}/feed`)
  }))
  // Closed connections are torn down on the next ticks; let that finish before the snapshot.
  await new Promise((resolve) => setTimeout(resolve, 50))
  globalThis.gc?.()
  await new Promise((resolve) => setImmediate(resolve))
  writeHeapSnapshot(join(dir, `${k}.heapsnapshot`))
}
server.closeAllConnections()
server.close()
process.exit(0)

/**
 * One GET on a fresh connection.
 * @param {string} path
 * @returns {Promise<void>}
 */
function get (path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { 'user-agent': 'bench' } }, (res) => {
      res.resume()
      res.on('end', resolve)
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}
