// Diff reports and text finding cards of fixture programs, shared by the signature tests. A diff
// of committed snapshots with plain-data options is made once per AVA run, for every test thread
// that asks, by the diff service ava.config.js starts (diff-service.js); the report is its JSON
// model, as `--format json` prints it.
import { resolve } from 'node:path'
import { diffSnapshots, inspectSnapshot, renderDiffReport } from 'leakdiff'
import { requestDiff } from './diff-service.js'
import { captureFixture } from './fixture-snapshots.js'
import { markedPosition, ROOT } from './fixture-source.js'

const SERVICE = process.env.LEAKDIFF_DIFF_SERVICE

/** runHttpRounds' defaults (fixtures/programs/lib/http-rounds.js): warm-up requests, then requests per round. */
export const WARMUP = 50
export const PER_ROUND = 300

/** @typedef {Awaited<ReturnType<typeof diffSnapshots>>} DiffReport */
/** @typedef {Awaited<ReturnType<typeof inspectSnapshot>>} InspectReport */
/** @typedef {DiffReport['findings'][number]} Finding */

/**
 * The diff report (all rows, paths from the repository root) of a fixture program's first
 * `snapshots` snapshots.
 * @param {string} program e.g. 'signatures/request-log'
 * @param {{snapshots?: number, args?: string[]}} [options]
 * @returns {Promise<DiffReport>}
 */
export async function reportOf (program, { snapshots = 3, args = [] } = {}) {
  const { files } = await captureFixture(program, { args })
  return sharedDiff(files.slice(0, snapshots), { top: 0, cwd: ROOT })
}

/** @type {Map<string, Promise<DiffReport | InspectReport>>} */
const diffs = new Map()

/**
 * diffSnapshots of snapshots no test changes while the run lasts (the committed fixtures, a
 * program's live capture) with options that are plain data: made once per AVA run by the diff
 * service's warm threads and shared by every test thread asking for the same diff (a test
 * thread's first diff costs about three times the CPU: its code is not compiled yet). What a test
 * checks of diffSnapshots itself (progress, errors, workers) calls it directly.
 * @param {string[]} files
 * @param {Omit<NonNullable<Parameters<typeof diffSnapshots>[1]>, 'onProgress'>} [options]
 * @returns {Promise<DiffReport>}
 */
export function sharedDiff (files, options = {}) {
  // The working directory is what the diff's paths are relative to when options name none.
  const plain = /** @type {Record<string, unknown>} */ ({ ...options, cwd: resolve(options.cwd ?? process.cwd()) })
  const key = JSON.stringify([files, Object.fromEntries(Object.entries(plain).sort(([a], [b]) => (a < b ? -1 : 1)))])
  let report = diffs.get(key)
  if (!report) {
    // Every thread gets the JSON, as the service's askers do.
    report = (SERVICE ? requestDiff(SERVICE, key, files, plain) : diffSnapshots(files, plain).then((made) => JSON.stringify(made))).then((json) => JSON.parse(json))
    diffs.set(key, report)
  }
  return /** @type {Promise<DiffReport>} */ (report)
}

/**
 * inspectSnapshot of a committed fixture snapshot with options that are plain data, made once per
 * AVA run by the diff service's warm threads, as sharedDiff's diffs are.
 * @param {string} file
 * @param {Omit<NonNullable<Parameters<typeof inspectSnapshot>[1]>, 'onProgress'>} [options]
 * @returns {Promise<InspectReport>}
 */
export function sharedInspect (file, options = {}) {
  const plain = /** @type {Record<string, unknown>} */ ({ ...options, cwd: resolve(options.cwd ?? process.cwd()) })
  const key = JSON.stringify(['inspect', file, Object.fromEntries(Object.entries(plain).sort(([a], [b]) => (a < b ? -1 : 1)))])
  let report = diffs.get(key)
  if (!report) {
    report = (SERVICE ? requestDiff(SERVICE, key, [file], plain, 'inspect') : inspectSnapshot(file, plain).then((made) => JSON.stringify(made))).then((json) => JSON.parse(json))
    diffs.set(key, report)
  }
  return /** @type {Promise<InspectReport>} */ (report)
}

/**
 * The first finding of signature `id` in a report.
 * @param {DiffReport} report
 * @param {string} id
 * @returns {Finding | undefined}
 */
export function findingOf (report, id) {
  return report.findings.find((finding) => finding.signature === id)
}

/**
 * The `perRound` a fixture program printed on stdout.
 * @param {string} program
 * @param {{args?: string[]}} [options]  the program's arguments, as for reportOf
 * @returns {Promise<number>}
 */
export async function perRoundOf (program, { args = [] } = {}) {
  const { report } = await captureFixture(program, { args })
  if (typeof report?.perRound !== 'number') throw new Error(`Expected ${program} to print {"perRound": n}, got ${JSON.stringify(report)}`)
  return report.perRound
}

/**
 * A finding location as the report gives it for the function at a marker comment (markedPosition).
 * @param {string} program
 * @param {string} marker
 * @param {string} token  where V8 starts the function on that line
 * @param {string} [name] the function's name ('' for an anonymous one)
 */
export function markedLocation (program, marker, token, name = '') {
  return { ...markedPosition(program, marker, token), function: name }
}

/**
 * Consecutive differences: [a, b, c] -> [b - a, c - b].
 * @param {number[]} values
 * @returns {number[]}
 */
export function stepsOf (values) {
  return values.slice(1).map((value, i) => value - values[i])
}

/**
 * Whether every value is larger than the one before it.
 * @param {number[]} values
 */
export function isRising (values) {
  return values.every((value, i) => i === 0 || value > values[i - 1])
}

/**
 * The counts a signature reports for a program driven by runHttpRounds, with one object per request.
 * @param {number} [perRound] requests per round (perRoundOf the program, or runHttpRounds' default)
 * @param {number} [snapshots]
 */
export function roundCounts (perRound = PER_ROUND, snapshots = 3) {
  return Array.from({ length: snapshots }, (_, k) => WARMUP + k * perRound)
}

/**
 * Checks that a fixed twin comes out clean: no finding, and no owner that kept growth.
 * @param {import('ava').ExecutionContext} t
 * @param {string} program
 */
export async function checkCleanTwin (t, program) {
  const report = await reportOf(program)
  t.deepEqual(report.findings, [])
  t.deepEqual(report.growth.filter((row) => row.leak), [])
}

/**
 * Checks that the finding of `id` made from two snapshots of `program` is the three-snapshot one
 * with lower confidence and a reason saying that two snapshots cannot tell a one-time fill apart.
 * @param {import('ava').ExecutionContext} t
 * @param {string} program
 * @param {string} id
 * @param {{args?: string[]}} [options]
 * @returns {Promise<{two: Finding, three: Finding} | undefined>} undefined when a finding is missing (the test failed)
 */
export async function checkWeakerWithTwoSnapshots (t, program, id, { args = [] } = {}) {
  const three = findingOf(await reportOf(program, { args }), id)
  const two = findingOf(await reportOf(program, { snapshots: 2, args }), id)
  if (!three || !two) {
    t.fail(`expected a ${id} finding with three and with two snapshots of ${program}`)
    return undefined
  }
  t.is(two.evidence.counts.length, 2)
  t.true(two.confidence < three.confidence, `${two.confidence} < ${three.confidence}`)
  t.true(two.reasons.some((reason) => reason.includes('only two snapshots')), two.reasons.join('\n'))
  return { two, three }
}

/**
 * The text report of a fixture program's diff as `leakdiff <snapshots>` prints it in a pipe (no
 * colour, 80 columns), and its card of finding 1 if that is a finding of `id`: its lines from the
 * header to the blank line after it. Rendered here, not by a CLI process: the CLI prints what
 * renderDiffReport returns, and test/diff/cli.test.js checks that it does.
 * @param {string} program
 * @param {string} id
 * @returns {Promise<{stdout: string, card: string[] | null}>}
 */
export async function textCardOf (program, id) {
  const stdout = renderDiffReport(await reportOf(program), { format: 'text', color: false, width: 80 })
  const lines = stdout.split('\n')
  const header = lines.findIndex((line) => new RegExp(`^1 +${id} +confidence 0\\.\\d\\d$`).test(line))
  return { stdout, card: header < 0 ? null : lines.slice(header, lines.indexOf('', header)) }
}

/**
 * Checks a text card: the line under the header starts with the marked location, the patterns
 * match lines in this order, and no line is wider than 80 columns.
 * @param {import('ava').ExecutionContext} t
 * @param {string[]} card as textCardOf returns it
 * @param {{location: {file: string, line: number, column: number}, order: RegExp[]}} expected
 */
export function checkTextCard (t, card, { location, order }) {
  const { file, line, column } = location
  t.true(card[1].trimStart().startsWith(`${file}:${line}:${column}`), card[1])
  const positions = order.map((pattern) => card.findIndex((text) => pattern.test(text)))
  t.true(positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1])), `${positions.join(', ')}\n${card.join('\n')}`)
  for (const text of card) t.true(text.length <= 80, text)
}
