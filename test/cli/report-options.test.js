// --top, --format, --output and --color are one definition that every command with a report
// shares, and --format offers what the renderer registry has for that report. In-process: the
// commands' builders and handlers, no CLI process.
import test from 'ava'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import yargs from 'yargs'
import { renderReport } from 'leakdiff'
import { sharedInspect } from '../helpers/fixture-reports.js'
import * as inspect from '../../cli/commands/inspect.js'
import * as diff from '../../cli/commands/diff.js'
import * as capture from '../../cli/commands/capture.js'
import * as soak from '../../cli/commands/soak.js'
import { GATE_OPTIONS } from '../../cli/gate-options.js'
import { formatsFor } from '../../src/report/formats.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { tempDir } from '../helpers/temp-dir.js'

/**
 * The options a command's builder defines.
 * @param {{builder: (y: import('yargs').Argv) => import('yargs').Argv}} command
 */
function optionsOf (command) {
  return /** @type {any} */ (command.builder(yargs([]))).getOptions()
}

const COMMANDS = { inspect: [inspect, 'inspect'], diff: [diff, 'diff'], 'capture --diff': [capture, 'diff'], soak: [soak, 'diff'] }

test('every command with a report takes --top, --format, --output and --color, and --format offers each format of its report', async (t) => {
  for (const [name, [command, kind]] of Object.entries(COMMANDS)) {
    const options = optionsOf(/** @type {any} */ (command))
    t.deepEqual(options.choices.format, formatsFor(/** @type {'diff' | 'inspect'} */ (kind)), name)
    t.true(options.number.includes('top'), name)
    t.true(options.string.includes('output') && options.alias.output?.includes('o'), name)
    t.true(options.boolean.includes('color'), name)
    // --help names every format it offers, and says the same of the shared options everywhere.
    const help = (await /** @type {any} */ (command).builder(yargs([]).wrap(null)).getHelp()).replace(/\s+/g, ' ')
    for (const format of options.choices.format) t.true(help.includes(`${format} (`), `${name}: ${format}`)
    t.true(help.includes('-o, --output Write the report to a file instead of stdout'), name)
    t.true(help.includes('--color Force colour on or off (default: on for a terminal; NO_COLOR and FORCE_COLOR work)'), name)
  }
})

test('inspect --format markdown writes the inspect report in Markdown to --output', async (t) => {
  const { files } = await captureFixture('diff/map-cache')
  const output = join(await tempDir('leakdiff-report-options-'), 'inspect.md')
  await inspect.handler({ snapshot: files[0], top: 5, format: 'markdown', output, skipMemoryCheck: true })
  const expected = renderReport(await sharedInspect(files[0], { top: 5 }), { format: 'markdown' })
  t.is(await readFile(output, 'utf8'), expected)
  t.regex(expected, /^## leakdiff inspect: /)
})

test('--max-growth reads 5MB as 5 x 10^6 bytes and 5MiB as 5 x 2^20, as the agent and assertNoLeak do', (t) => {
  const coerce = /** @type {(value: string) => number} */ (GATE_OPTIONS['max-growth'].coerce)
  t.is(coerce('5MB'), 5_000_000)
  t.is(coerce('5MiB'), 5 * 2 ** 20)
  t.true(Number.isNaN(coerce('5m')))
})
