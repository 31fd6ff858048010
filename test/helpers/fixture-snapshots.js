// Runs a snapshot-writing fixture program (contract in fixtures/README.md) in a child process and
// hands its snapshots to tests. One run per (program, args, nodeArgs) per test process: ava runs each
// test file in its own process, so the tests of one file share one run.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const PROGRAMS_DIR = fileURLToPath(new URL('../../fixtures/programs/', import.meta.url))
const SNAPSHOT_NAME = /^(\d+)\.heapsnapshot$/

/**
 * @typedef {object} CapturedFixture
 * @property {string} dir      the temporary output directory (removed when the test process exits)
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
 * Runs `node ...nodeArgs fixtures/programs/<program>.js <tmpdir> ...args` once and returns its snapshots.
 * @param {string} program path under fixtures/programs/ without `.js`, e.g. 'engine/mixed-heap'
 * @param {{args?: string[], nodeArgs?: string[], timeoutMs?: number}} [options]
 * @returns {Promise<CapturedFixture>}
 */
export function captureFixture (program, { args = [], nodeArgs = ['--expose-gc'], timeoutMs = 60_000 } = {}) {
  const key = JSON.stringify([program, args, nodeArgs])
  let run = runs.get(key)
  if (!run) {
    run = runProgram(program, args, nodeArgs, timeoutMs)
    runs.set(key, run)
  }
  return run
}

/**
 * @param {string} program
 * @param {string[]} args
 * @param {string[]} nodeArgs
 * @param {number} timeoutMs
 * @returns {Promise<CapturedFixture>}
 */
function runProgram (program, args, nodeArgs, timeoutMs) {
  const script = join(PROGRAMS_DIR, `${program}.js`)
  if (!existsSync(script)) {
    return Promise.reject(new Error(`Expected a fixture program at ${script}, found none`))
  }
  const dir = mkdtempSync(join(tmpdir(), `leakdiff-${program.replaceAll('/', '-')}-`))
  tempDirs.add(dir)
  const argv = [...nodeArgs, script, dir, ...args]
  return new Promise((resolve, reject) => {
    execFile(process.execPath, argv, { timeout: timeoutMs, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error) {
        const how = error.killed
          ? `was killed after ${timeoutMs} ms`
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
