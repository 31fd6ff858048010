// Snapshots of one server-like process with growth between them, for the diff benchmark:
// `node bench/server-series.js <sessions> <added> <first> <second> [<third> ...]`.
// The heap is server-heap.js's, loaded unchanged (its hash keys the cache of the single-file
// snapshots): it builds `sessions` sessions and writes <first>. Before each later file, `added`
// more sessions and their access-log records join the same Map and array, as a leaking session
// store would. Same arguments, same heaps: server-heap.js draws every choice from a seeded generator.
import { writeHeapSnapshot } from 'node:v8'

const [sessionsArg, addedArg, first, ...later] = process.argv.slice(2)
const SESSIONS = Number(sessionsArg)
const ADDED = Number(addedArg)
if (!first || later.length === 0 || !Number.isInteger(SESSIONS) || SESSIONS < 1 || !Number.isInteger(ADDED) || ADDED < 0) {
  throw new Error(`Expected <sessions> <added> <first> <second> [<third> ...] (sessions >= 1, added >= 0), got ${JSON.stringify(process.argv.slice(2))}`)
}

// server-heap.js reads its file and session count from argv and writes from a fresh tick.
process.argv = [process.argv[0], new URL('server-heap.js', import.meta.url).pathname, first, String(SESSIONS)]
await import('./server-heap.js')
await new Promise((resolve) => setImmediate(resolve))

const { catalog, sessions, accessLog } = /** @type {any} */ (globalThis).server
// The Session class is not exported; every stored session knows its constructor.
const Session = sessions.values().next().value.constructor
let next = SESSIONS
for (const file of later) {
  for (const end = next + ADDED; next < end; next++) {
    const session = new Session(next, catalog)
    sessions.set(session.id, session)
    accessLog.push({ at: session.createdAt, method: 'GET', path: `/api/v1/items/${next * 7}`, status: 200, session: session.id })
  }
  // Written from a fresh tick, as the first one is.
  await new Promise((resolve) => setImmediate(resolve))
  writeHeapSnapshot(file)
}
