// Two snapshots of one server-like process with growth between them, for the diff benchmark:
// `node bench/server-series.js <first> <second> <sessions> <added>`.
// The heap is server-heap.js's, loaded unchanged (its hash keys the cache of the single-file
// snapshots): it builds `sessions` sessions and writes <first>. Then `added` more sessions and their
// access-log records join the same Map and array, as a leaking session store would, and <second>
// is written. Same arguments, same heaps: server-heap.js draws every choice from a seeded generator.
import { writeHeapSnapshot } from 'node:v8'

const [first, second, sessionsArg, addedArg] = process.argv.slice(2)
const SESSIONS = Number(sessionsArg)
const ADDED = Number(addedArg)
if (!first || !second || !Number.isInteger(SESSIONS) || SESSIONS < 1 || !Number.isInteger(ADDED) || ADDED < 0) {
  throw new Error(`Expected <first> <second> <sessions> <added> (sessions >= 1, added >= 0), got ${JSON.stringify(process.argv.slice(2))}`)
}

// server-heap.js reads its file and session count from argv and writes from a fresh tick.
process.argv = [process.argv[0], new URL('server-heap.js', import.meta.url).pathname, first, String(SESSIONS)]
await import('./server-heap.js')
await new Promise((resolve) => setImmediate(resolve))

const { catalog, sessions, accessLog } = /** @type {any} */ (globalThis).server
// The Session class is not exported; every stored session knows its constructor.
const Session = sessions.values().next().value.constructor
for (let i = SESSIONS; i < SESSIONS + ADDED; i++) {
  const session = new Session(i, catalog)
  sessions.set(session.id, session)
  accessLog.push({ at: session.createdAt, method: 'GET', path: `/api/v1/items/${i * 7}`, status: 200, session: session.id })
}
setImmediate(() => writeHeapSnapshot(second))
