// `leakdiff a b [c]`, run: the snapshots (or each thread's of an agent's series) diffed, the report
// written and the gates applied.
import { existsSync } from 'node:fs'
import { realpath } from 'node:fs/promises'
import { diffSnapshots } from 'leakdiff'
import { escapeText, parseSize, SIZE_EXAMPLES } from '#cli/support'
import { ensureMemory } from '../memory-check.js'
import { COMMAND_NAMES } from '../commands/names.js'
import { checkOutput, DASH, describeNumber, progressBar, snapshotSource, UsageError } from '../output.js'
import { emitReport } from '../report-output.js'
import { seriesGroups } from '../series-input.js'
import { sourceOptionsOf } from '../source-options.js'

/** Words people give a switch (`--color never`) that yargs then reads as a positional. */
const SWITCH_WORDS = new Set(['always', 'never', 'auto', 'true', 'false', 'yes', 'no', 'on', 'off'])

/**
 * The arguments yargs hands the diff command.
 * @typedef {{snapshots: string[], top: number, format: string, output?: string, color?: boolean,
 *   minBytes: number | string, minObjects: number, minContinued: number, failOn?: 'any' | string[], maxGrowth?: number, allow?: string[], skipMemoryCheck?: boolean,
 *   sourceMaps?: string, sourceRoot?: string[], thread?: number}} DiffArguments
 */

/** @param {DiffArguments} argv */
export async function handler (argv) {
  // A directory the agent wrote to, or a series file: each thread's snapshots, diffed apart.
  const groups = await seriesGroups(argv.snapshots, argv.thread, (line) => process.stderr.write(`leakdiff: ${line}\n`))
  if (groups === undefined) return diffFiles(argv, argv.snapshots)
  if (groups.length > 1 && (argv.output || !['text', 'markdown'].includes(argv.format))) {
    throw new UsageError(`${argv.snapshots[0]} holds the series of ${groups.length} threads (${groups.map((group) => group.threadId).join(', ')}): pick one with --thread for --format ${argv.format}${argv.output ? ' or --output' : ''}`)
  }
  for (const [i, group] of groups.entries()) {
    if (groups.length > 1) process.stdout.write(`${i > 0 ? '\n' : ''}== ${group.title} ==\n`)
    if (group.files.length < 2) {
      process.stdout.write(`not diffed: ${group.files.length} snapshot${group.files.length === 1 ? '' : 's'}\n`)
      continue
    }
    await diffFiles(argv, group.files)
  }
}

/**
 * @param {DiffArguments} argv
 * @param {string[]} snapshots
 */
async function diffFiles (argv, snapshots) {
  // `--color never`, as other tools spell it: a switch takes no value, so the word is a snapshot.
  const word = snapshots.find((name) => SWITCH_WORDS.has(name) && !existsSync(name))
  if (word !== undefined) throw new UsageError(`'${word}' is read as a snapshot: switches such as --color take no value (--color, --no-color)`)
  const [first] = snapshots
  const meant = existsSync(first) ? undefined : COMMAND_NAMES.find((command) => first !== command && editDistance(first.toLowerCase(), command) <= (command.length > 4 ? 2 : 1))
  if (meant !== undefined) throw new UsageError(`'${first}' is no snapshot file nor a command: did you mean 'leakdiff ${meant}'?`)
  if (snapshots.length < 2 || snapshots.length > 3) throw new UsageError(`Expected 2 or 3 snapshots (oldest first), got ${snapshots.length}`)
  const minBytes = parseMinBytes(argv.minBytes)
  for (const name of /** @type {const} */ (['minObjects', 'minContinued'])) {
    if (!(argv[name] >= 0)) throw new UsageError(`--${name.replace(/[A-Z]/g, (l) => `-${l.toLowerCase()}`)} expects a number >= 0, got ${describeNumber(argv[name])}`)
  }
  await checkOutput(argv.output)
  await checkDistinct(snapshots)
  const sources = snapshots.map(snapshotSource)
  const { lowMemory } = await ensureMemory(sources, 'diff', { skip: argv.skipMemoryCheck })
  const progress = progressBar('reading snapshots')
  let report
  try {
    report = await diffSnapshots(sources, {
      top: argv.top,
      minBytes,
      minObjects: argv.minObjects,
      minContinued: argv.minContinued,
      ...sourceOptionsOf(argv),
      lowMemory,
      onProgress: progress.update
    })
  } finally {
    progress.done()
  }
  // Without gates, the diff's verdict decides the exit code, as it always has.
  await emitReport(report, argv, { defaultGates: { verdict: true } })
  if (report.comparison === 'aggregates') {
    // Class totals of two processes are still worth reading, but no gate can judge them: a pipeline
    // that diffs the wrong files must not pass.
    process.stderr.write(`leakdiff: ${escapeText(report.warnings[0] ?? report.reason)}\n`)
    process.exitCode = 2
  }
}

/**
 * --min-bytes as a number of bytes: a bare number or a size with a unit (parseSize).
 * @param {number | string} value
 */
function parseMinBytes (value) {
  const bytes = parseSize(value)
  if (bytes === undefined) throw new UsageError(`--min-bytes expects ${SIZE_EXAMPLES}, got ${JSON.stringify(value)}`)
  return bytes
}

/**
 * One file given twice diffs to nothing and would come out clean: refuse it. Files that cannot be
 * resolved are left to the parser, which names what is wrong with them.
 * @param {string[]} snapshots
 */
async function checkDistinct (snapshots) {
  if (snapshots.filter((file) => file === DASH).length > 1) throw new UsageError('- (standard input) can be read only once: give the other snapshots as files')
  const real = await Promise.all(snapshots.map((file) => realpath(file).catch(() => file)))
  const twice = real.findIndex((file, i) => real.indexOf(file) !== i)
  if (twice >= 0) throw new UsageError(`${snapshots[twice]} is given twice: diff snapshots taken at different times (oldest first)`)
}

/**
 * How many letters to insert, delete or change to turn `a` into `b` (Levenshtein).
 * @param {string} a
 * @param {string} b
 */
function editDistance (a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = row
  }
  return previous[b.length]
}
