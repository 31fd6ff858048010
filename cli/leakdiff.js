#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import yargs from 'yargs'
import { hideBin } from 'yargs/helpers'
import { DASH, protectDashes, reportError, UsageError } from './output.js'
import * as inspect from './commands/inspect.js'
import * as diff from './commands/diff.js'
import * as capture from './commands/capture.js'
import * as soak from './commands/soak.js'
import { COMMAND_NAMES as COMMANDS } from './commands/names.js'
import { tuneV8 } from './tune-v8.js'

tuneV8()

const NO_SNAPSHOTS = `Expected two or three snapshots of one process, oldest first: leakdiff a.heapsnapshot b.heapsnapshot [c.heapsnapshot]; or a command: ${COMMANDS.join(', ')}`
/** What a command given without its argument expects, for yargs' "got 0, need at least 1". */
const MISSING = /** @type {Record<string, string>} */ ({
  inspect: 'Expected a snapshot to inspect: leakdiff inspect <snapshot> (- reads standard input)',
  capture: 'Expected the pid of a process that runs the agent: leakdiff capture <pid>'
})

// yargs looks for a package.json from the working directory when the CLI is an ES module: a
// project's own version, where leakdiff is installed in it.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))

const argv = protectDashes(hideBin(process.argv))
const debug = argv.includes('--debug')

const cli = yargs(argv)
  .scriptName('leakdiff')
  .usage('$0 <a.heapsnapshot> <b.heapsnapshot> [c.heapsnapshot]\n$0 <command> [options]')
  .command(/** @type {import('yargs').CommandModule} */ (/** @type {unknown} */ (inspect)))
  .command(/** @type {import('yargs').CommandModule} */ (/** @type {unknown} */ (diff)))
  .command(/** @type {import('yargs').CommandModule} */ (/** @type {unknown} */ (capture)))
  .command(/** @type {import('yargs').CommandModule} */ (/** @type {unknown} */ (soak)))
  .option('debug', { type: 'boolean', describe: 'Print stack traces of errors', global: true })
  // `--output -` is standard output, as `-` is standard input for a snapshot.
  .middleware((parsed) => {
    if (parsed.output === DASH) {
      delete parsed.output
      delete parsed.o
    }
  })
  .demandCommand(1, 'Give two or three snapshots to diff, or a command.')
  .strict()
  .recommendCommands()
  .help()
  .alias('help', 'h')
  .version(version)
  .wrap(Math.min(100, process.stdout.columns || 80))
  .fail((message, error) => {
    // Run bare, yargs counts the default command's positionals ("got 0, need at least 1"), which
    // tells a first-time user neither what to give nor that it takes two.
    if (!error && /^Not enough non-option arguments/.test(message)) {
      const command = COMMANDS.find((name) => argv.includes(name))
      if (command === undefined) throw new UsageError(NO_SNAPSHOTS)
      if (MISSING[command] !== undefined) throw new UsageError(MISSING[command])
    }
    // yargs spreads some messages (invalid choices) over several lines; an error is one line.
    throw error ?? new UsageError(message.replace(/\s*\n\s*/g, ' '))
  })

try {
  await cli.parseAsync()
} catch (error) {
  process.exitCode = reportError(error, { debug })
}
