// What `import 'leakdiff'` loads: the modules its static imports reach. A test process that imports
// the package for assertNoLeak snapshots its own heap, so whatever the import loads is analysed three
// times per assertion; the upper half (the diff, the signatures, the sources layer and its parsers)
// is loaded on the first diff, inspect or soak instead.
import test from 'ava'
import { readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'acorn'
import { SIGNATURES } from '../src/signatures/index.js'
import { SIGNATURE_IDS } from '../src/signatures/ids.js'

const SRC = fileURLToPath(new URL('../src/', import.meta.url))

/**
 * The files and packages reached from `entry` by static `import` and `export … from`.
 * @param {string} entry
 * @param {Record<string, string>} [aliases]  the package's own specifiers (package.json exports and imports) and their files
 */
function staticImports (entry, aliases = {}) {
  const files = new Set([entry])
  const packages = new Set()
  for (const file of files) {
    for (const from of specifiersOf(file)) {
      if (from.startsWith('.')) files.add(join(dirname(file), from))
      else if (from in aliases) files.add(aliases[from])
      else if (!from.startsWith('node:')) packages.add(from)
    }
  }
  return { files: [...files].map((file) => relative(SRC, file)), packages: [...packages] }
}

/** @type {Map<string, string[]>} each file's static import specifiers, parsed once for every test */
const specifiers = new Map()

/** @param {string} file */
function specifiersOf (file) {
  let found = specifiers.get(file)
  if (found === undefined) {
    const program = parse(readFileSync(file, 'utf8'), { ecmaVersion: 'latest', sourceType: 'module' })
    found = program.body.flatMap((node) => 'source' in node && node.source && typeof node.source.value === 'string' ? [node.source.value] : [])
    specifiers.set(file, found)
  }
  return found
}

test('importing the package loads no part of the upper half: no diff, signature matcher, source locator or JavaScript parser', (t) => {
  const { files, packages } = staticImports(join(SRC, 'index.js'))
  t.true(files.includes('soak/assert-no-leak.js') && files.includes('report/renderers.js'), files.join(' '))
  for (const dir of ['pipeline/', 'diff/', 'sources/source-locator', 'signatures/match-signatures', 'syntax/']) {
    t.deepEqual(files.filter((file) => file.startsWith(dir)), [], dir)
  }
  t.deepEqual(packages.filter((name) => /acorn|trace-mapping|lru-cache/.test(name)), [])
})

test('the lazily loaded entry points are the functions of their modules, called through', async (t) => {
  const leakdiff = await import('leakdiff')
  await t.throwsAsync(leakdiff.diffSnapshots(/** @type {any} */ ('a.heapsnapshot')), { code: 'LEAKDIFF_INVALID_ARG', message: /^Expected an array of 2 or 3 snapshots/ })
  await t.throwsAsync(leakdiff.inspectSnapshot(join(SRC, 'missing.heapsnapshot')), { message: /missing\.heapsnapshot/ })
  await t.throwsAsync(leakdiff.runSoak(/** @type {any} */ ({})), { message: /command/ })
})

test('the signature ids the CLI checks --fail-on against, loaded without the matchers, are the matchers\' in their order', (t) => {
  t.deepEqual([...SIGNATURE_IDS], SIGNATURES.map((signature) => signature.id))
})

const CLI_ALIASES = { '#cli/support': join(SRC, 'cli-support.js'), '#cli/agent': join(SRC, 'cli-agent.js'), '#cli/run': join(SRC, 'cli-run.js'), leakdiff: join(SRC, 'index.js'), 'leakdiff/agent': join(SRC, 'agent.js') }

test('the CLI\'s start loads what the command line needs and nothing that runs a command: no engine, renderer, agent or upper half', (t) => {
  const { files, packages } = staticImports(fileURLToPath(new URL('../cli/leakdiff.js', import.meta.url)), CLI_ALIASES)
  t.true(files.includes('cli-support.js') && files.includes('report/formats.js') && files.includes('signatures/ids.js'), files.join(' '))
  t.false(files.includes('cli-run.js') || files.includes('cli-agent.js') || files.includes('index.js') || files.some((file) => file.includes('/cli/run/')), files.join(' '))
  for (const dir of ['parse/', 'graph/', 'analysis/', 'agent/', 'soak/', 'pipeline/', 'diff/diff-heaps', 'sources/', 'signatures/match-signatures', 'signatures/index', 'syntax/', 'report/render']) {
    t.deepEqual(files.filter((file) => file.startsWith(dir)), [], dir)
  }
  t.deepEqual(packages.filter((name) => name !== 'yargs' && name !== 'yargs/helpers'), [])
})

test('a command, once it runs, loads the agent\'s pieces it calls from their own modules, never the agent a service runs; a capture loads the engine for --diff only', (t) => {
  for (const command of ['capture', 'diff-series', 'diff', 'inspect', 'soak']) {
    const { files, packages } = staticImports(fileURLToPath(new URL(`../cli/run/${command}.js`, import.meta.url)), CLI_ALIASES)
    t.true(files.includes('cli-agent.js') && files.includes('agent/request-series.js'), `${command}: ${files.join(' ')}`)
    if (command === 'capture') {
      for (const dir of ['index.js', 'cli-run.js', 'parse/', 'graph/', 'analysis/', 'report/render', 'soak/']) t.deepEqual(files.filter((file) => file.startsWith(dir)), [], `${command}: ${dir}`)
    } else {
      t.true(files.includes('index.js') && files.includes('cli-run.js'), `${command}: ${files.join(' ')}`)
    }
    // The `leakdiff/agent` entry would load its signal listener, watch mode and series writer.
    for (const file of ['agent.js', 'agent/start-agent.js', 'agent/signal-listener.js', 'agent/watch.js', 'agent/series-writer.js']) t.false(files.includes(file), `${command}: ${file}`)
    // The upper half comes with the first diff, inspect or soak (src/index.js), not with the command.
    for (const dir of ['pipeline/', 'diff/diff-heaps', 'sources/source-locator', 'signatures/match-signatures', 'signatures/index', 'syntax/']) {
      t.deepEqual(files.filter((file) => file.startsWith(dir)), [], `${command}: ${dir}`)
    }
    t.deepEqual(packages.filter((name) => /acorn|trace-mapping|lru-cache/.test(name)), [], command)
  }
})
