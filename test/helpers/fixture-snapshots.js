// Hands tests the snapshots of a fixture program (contract in fixtures/README.md). Most programs'
// snapshots are committed, trimmed, under fixtures/snapshots/ (`npm run fixtures:snapshots` makes
// them): those are unpacked as the program would have left them (plain files, their modification
// times, sidecars and profiles), with the checkout's real path put back where the capture wrote
// CANONICAL_ROOT, once per checkout and case into node_modules/.cache/leakdiff-fixtures/, and
// nothing runs. `{live: true}`, or a program with no committed snapshots, runs the program in a
// child process: once per (program, args, nodeArgs) per AVA run, in the directory ava.config.js
// names (LEAKDIFF_FIXTURE_DIR), which every test thread shares and AVA removes when it exits. The
// first test thread to ask for a program runs it there; the others wait for its result file.
// Without that directory (a test file run some other way) each test process runs the program once
// in a temporary directory of its own.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliDecompressSync } from 'node:zlib'
import { caseName } from '../../fixtures/capture/cases.js'
import { CANONICAL_ROOT, placeCheckout, SERIES_FILE } from '../../fixtures/capture/layout.js'
import { decodeSeries } from '../../fixtures/capture/series-format.js'
import { pollUntil, scaledMs } from './load-deadline.js'
import { threadId } from 'node:worker_threads'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const PROGRAMS_DIR = fileURLToPath(new URL('../../fixtures/programs/', import.meta.url))
const COMMITTED_DIR = fileURLToPath(new URL('../../fixtures/snapshots/', import.meta.url))
// One directory per checkout path (the unpacked files hold it), so that checkouts sharing one
// node_modules never remove each other's cases.
export const UNPACKED_DIR = join(ROOT, 'node_modules', '.cache', 'leakdiff-fixtures', createHash('sha256').update(ROOT).digest('hex').slice(0, 12))
/** Longer than any unpack takes, on a loaded machine too. */
const STALE_LOCK_MS = 30_000
const LIB_DIR = join(PROGRAMS_DIR, 'lib')
const SNAPSHOT_NAME = /^(\d+)\.heapsnapshot$/
const SHARED_DIR = process.env.LEAKDIFF_FIXTURE_DIR
const RESULT_FILE = 'result.json'
const POLL_MS = 50

/**
 * @typedef {object} CapturedFixture
 * @property {string} dir      the program's output directory (removed when AVA, or this test process, exits)
 * @property {string[]} files  snapshot paths in series order (1.heapsnapshot, 2.heapsnapshot, ...)
 * @property {string} stdout   what the program printed
 * @property {any} report      stdout parsed as one JSON line, or null when the program printed nothing
 */

/** @type {Map<string, Promise<CapturedFixture>>} */
const runs = new Map()
/** @type {Set<string>} */
const tempDirs = new Set()

process.once('exit', () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})

/**
 * The snapshots of `node ...nodeArgs fixtures/programs/<program>.js <dir> ...args`: the committed
 * ones when there are, else the program's, run once. The snapshots are shared with other test
 * files: read them, never change them.
 * @param {string} program path under fixtures/programs/ without `.js`, e.g. 'engine/mixed-heap'
 * @param {{args?: string[], nodeArgs?: string[], timeoutMs?: number, live?: boolean, build?: import('../../fixtures/capture/builds.js').BuildKind}} [options]
 *   live: run the program even when its snapshots are committed; build: the committed case that
 *   ran this build (fixtures/capture/builds.js), whose files are in the case's directory
 * @returns {Promise<CapturedFixture>}
 */
export function captureFixture (program, { args = [], nodeArgs = ['--expose-gc'], timeoutMs = 60_000, live = false, build } = {}) {
  const committed = live ? null : committedCase({ program, args, nodeArgs, build })
  if (build && committed === null) return Promise.reject(new Error(`Expected committed snapshots of ${program} running the ${build} build: npm run fixtures:snapshots -- ${program}`))
  // The builds of a program run alike and are told apart by their committed case.
  const key = JSON.stringify([program, args, nodeArgs, committed !== null, build ?? null])
  let run = runs.get(key)
  if (!run) {
    const limit = scaledMs(timeoutMs)
    run = committed !== null
      ? unpackCommitted(committed)
      : SHARED_DIR ? runShared(key, program, args, nodeArgs, limit) : runOwn(program, args, nodeArgs, limit)
    runs.set(key, run)
  }
  return run
}

/**
 * The committed case's directory, or null when the program's snapshots are not committed.
 * @param {{program: string, args: string[], nodeArgs: string[], build?: string}} fixture
 */
export function committedCase (fixture) {
  const dir = join(COMMITTED_DIR, caseName(fixture))
  return existsSync(join(dir, 'case.json')) ? dir : null
}

/**
 * A committed case unpacked as the program would have left it: plain `<k>.heapsnapshot` files with
 * their modification times, sidecars and profiles, and the checkout's path where the capture wrote
 * CANONICAL_ROOT. Unpacked once per checkout path and case content into node_modules/.cache/ (a
 * case captured again or a checkout moved unpacks anew); one test thread unpacks while the others
 * wait for its marker.
 * @param {string} source
 * @returns {Promise<CapturedFixture>}
 */
async function unpackCommitted (source) {
  const info = JSON.parse(readFileSync(join(source, 'case.json'), 'utf8'))
  const name = source.split('/').filter(Boolean).pop() ?? 'case'
  const hash = createHash('sha256')
  // What is unpacked comes from the case's own files (a build's directories stay where they are).
  for (const entry of readdirSync(source, { withFileTypes: true }).filter((entry) => entry.isFile()).sort((a, b) => a.name < b.name ? -1 : 1)) hash.update(entry.name).update(readFileSync(join(source, entry.name)))
  const key = hash.digest('hex').slice(0, 16)
  const dir = join(UNPACKED_DIR, `${name}-${key}`)
  /** @type {string[]} */
  const files = info.snapshots.map((/** @type {{file: string}} */ { file }) => join(dir, file))
  const unpacked = `${dir}.unpacked`
  if (!existsSync(unpacked)) {
    mkdirSync(UNPACKED_DIR, { recursive: true })
    const lock = `${dir}.lock`
    // Another thread unpacking: wait for its marker, unless its lock is older than any unpack
    // takes (a run stopped midway); then unpack here too (each file is written aside and
    // renamed, so two writers never leave half a file).
    if (!tryLock(lock)) await pollUntil(() => existsSync(unpacked) || lockAge(lock) > STALE_LOCK_MS, 60_000)
    if (!existsSync(unpacked)) {
      dropOtherKeys(name, key)
      mkdirSync(dir, { recursive: true })
      unpackFiles(source, dir, info, files)
      writeFileSync(unpacked, '')
    }
    rmSync(lock, { recursive: true, force: true })
  }
  const stdout = placeCheckout(info.stdout, ROOT)
  const text = stdout.trim()
  return { dir, files, stdout, report: text ? JSON.parse(text) : null }
}

/**
 * How long ago the lock was taken, in ms (0 when there is none).
 * @param {string} lock
 */
function lockAge (lock) {
  try {
    return Date.now() - statSync(lock).mtimeMs
  } catch {
    return 0
  }
}

/**
 * Removes the unpacked copies of a case made from other contents of it (captured since).
 * @param {string} name
 * @param {string} key
 */
function dropOtherKeys (name, key) {
  const other = new RegExp(`^${name.replace(/[^\w]/g, '\\$&')}-(?!${key})[0-9a-f]{16}(\\.unpacked)?$`)
  for (const entry of readdirSync(UNPACKED_DIR)) if (other.test(entry)) rmSync(join(UNPACKED_DIR, entry), { recursive: true, force: true })
}

/**
 * Whether this thread took the lock (a directory only one mkdir creates).
 * @param {string} path
 */
function tryLock (path) {
  try {
    mkdirSync(path)
    return true
  } catch {
    return false
  }
}

/**
 * Writes a committed case's files into `dir`, then its marker.
 * @param {string} source
 * @param {string} dir
 * @param {any} info case.json
 * @param {string[]} files
 */
function unpackFiles (source, dir, info, files) {
  const place = (/** @type {string} */ text) => placeCheckout(text, ROOT)
  if (!files.every((file) => existsSync(file))) {
    const series = brotliDecompressSync(readFileSync(join(source, SERIES_FILE)))
    /** @type {Buffer[]} */
    let texts
    if (info.format === 'series') {
      // The checkout's path is put back in the string table, where every path of a snapshot is.
      texts = decodeSeries(series, { mapString: (text) => text.replaceAll(CANONICAL_ROOT, ROOT) })
    } else {
      let at = 0
      texts = info.snapshots.map((/** @type {{bytes: number}} */ { bytes }) => Buffer.from(place(series.toString('latin1', at, (at += bytes))), 'latin1'))
    }
    texts.forEach((text, i) => writeAside(files[i], text))
  }
  info.snapshots.forEach((/** @type {{mtime: string}} */ { mtime }, /** @type {number} */ i) => utimesSync(files[i], new Date(mtime), new Date(mtime)))
  for (const file of readdirSync(source)) {
    if (!/\.(meta\.json|heapprofile)$/.test(file) || existsSync(join(dir, file))) continue
    writeAside(join(dir, file), Buffer.from(place(readFileSync(join(source, file), 'utf8'))))
  }
}

/**
 * @param {string} path
 * @param {Buffer} bytes
 */
function writeAside (path, bytes) {
  const aside = `${path}.${process.pid}-${threadId}`
  // Owner-only, as V8 and the agent write snapshots and profiles.
  writeFileSync(aside, bytes, { mode: 0o600 })
  renameSync(aside, path)
}

/**
 * @param {string} program
 * @param {string[]} args
 * @param {string[]} nodeArgs
 * @param {number} timeoutMs
 * @returns {Promise<CapturedFixture>}
 */
function runOwn (program, args, nodeArgs, timeoutMs) {
  const dir = mkdtempSync(join(tmpdir(), `leakdiff-${program.replaceAll('/', '-')}-`))
  tempDirs.add(dir)
  return runProgram(program, args, nodeArgs, timeoutMs, dir)
}

/**
 * Runs the program in the shared directory, or waits for the test process that got there first.
 * `mkdir` decides who runs it: it fails for everyone but one.
 * @param {string} key
 * @param {string} program
 * @param {string[]} args
 * @param {string[]} nodeArgs
 * @param {number} timeoutMs
 * @returns {Promise<CapturedFixture>}
 */
async function runShared (key, program, args, nodeArgs, timeoutMs) {
  // In watch mode one AVA process makes several runs: a changed program must run again.
  const hash = createHash('sha256').update(key)
  for (const file of [join(PROGRAMS_DIR, `${program}.js`), ...readdirSync(LIB_DIR).map((name) => join(LIB_DIR, name))]) {
    if (existsSync(file)) hash.update(readFileSync(file))
  }
  const dir = join(/** @type {string} */ (SHARED_DIR), `${program.replaceAll('/', '-')}-${hash.digest('hex').slice(0, 12)}`)
  const resultFile = join(dir, RESULT_FILE)
  mkdirSync(/** @type {string} */ (SHARED_DIR), { recursive: true })
  try {
    mkdirSync(dir)
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error
    return waitForResult(program, resultFile, timeoutMs)
  }
  /** @type {{fixture?: CapturedFixture, error?: string}} */
  let result
  try {
    result = { fixture: await runProgram(program, args, nodeArgs, timeoutMs, dir) }
  } catch (error) {
    result = { error: /** @type {Error} */ (error).message }
  }
  // Written aside and renamed, so that a waiting process never reads half a file.
  writeFileSync(`${resultFile}.${process.pid}-${threadId}`, JSON.stringify(result))
  renameSync(`${resultFile}.${process.pid}-${threadId}`, resultFile)
  if (result.error !== undefined) throw new Error(result.error)
  return /** @type {CapturedFixture} */ (result.fixture)
}

/**
 * @param {string} program
 * @param {string} resultFile
 * @param {number} timeoutMs the runner's own time limit; waiting allows it twice, as the runner may start late
 * @returns {Promise<CapturedFixture>}
 */
async function waitForResult (program, resultFile, timeoutMs) {
  const deadline = Date.now() + 2 * timeoutMs
  while (!existsSync(resultFile)) {
    if (Date.now() > deadline) throw new Error(`Expected another test process to run fixture program ${program} and write ${resultFile} within ${2 * timeoutMs} ms (stretched with the machine's load), found nothing`)
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  /** @type {{fixture?: CapturedFixture, error?: string}} */
  const result = JSON.parse(readFileSync(resultFile, 'utf8'))
  if (result.error !== undefined) throw new Error(result.error)
  return /** @type {CapturedFixture} */ (result.fixture)
}

/**
 * @param {string} program
 * @param {string[]} args
 * @param {string[]} nodeArgs
 * @param {number} timeoutMs
 * @param {string} dir
 * @returns {Promise<CapturedFixture>}
 */
function runProgram (program, args, nodeArgs, timeoutMs, dir) {
  const script = join(PROGRAMS_DIR, `${program}.js`)
  if (!existsSync(script)) {
    return Promise.reject(new Error(`Expected a fixture program at ${script}, found none`))
  }
  const argv = [...nodeArgs, script, dir, ...args]
  // Under c8 every child inherits NODE_V8_COVERAGE. Fixture programs are not what the coverage
  // measures, and V8's coverage bookkeeping makes them slower and their heaps bigger.
  const { NODE_V8_COVERAGE, ...env } = process.env
  return new Promise((resolve, reject) => {
    execFile(process.execPath, argv, { env, timeout: timeoutMs, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error) {
        const how = error.killed
          ? `was killed after ${timeoutMs} ms (the limit stretches with the machine's load)`
          : error.signal ? `was killed by ${error.signal}` : `exited with code ${error.code}`
        reject(new Error(`Fixture program ${program} ${how}: node ${argv.join(' ')}\n${stderr}`, { cause: error }))
        return
      }
      const numbered = readdirSync(dir)
        .map((name) => SNAPSHOT_NAME.exec(name))
        .filter((match) => match !== null)
        .sort((a, b) => Number(a[1]) - Number(b[1]))
      if (numbered.length === 0) {
        reject(new Error(`Fixture program ${program} exited 0 but wrote no <k>.heapsnapshot into ${dir}\n${stderr}`))
        return
      }
      const text = stdout.trim()
      let report = null
      try {
        report = text ? JSON.parse(text) : null
      } catch (cause) {
        reject(new Error(`Fixture program ${program} printed something other than one JSON line: ${text.slice(0, 200)}`, { cause }))
        return
      }
      resolve({ dir, files: numbered.map((match) => join(dir, match[0])), stdout, report })
    })
  })
}
