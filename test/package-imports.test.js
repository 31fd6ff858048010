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
    const program = parse(readFileSync(file, 'utf8'), { ecmaVersion: 'latest', sourceType: 'module' })
    for (const node of program.body) {
      if (!('source' in node) || !node.source || typeof node.source.value !== 'string') continue
      const from = node.source.value
      if (from.startsWith('.')) files.add(join(dirname(file), from))
      else if (from in aliases) files.add(aliases[from])
      else if (!from.startsWith('node:')) packages.add(from)
    }
  }
  return { files: [...files].map((file) => relative(SRC, file)), packages: [...packages] }
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

test('the CLI\'s start loads no part of the upper half either, nor the agent\'s machinery for a service', (t) => {
  const { files, packages } = staticImports(fileURLToPath(new URL('../cli/leakdiff.js', import.meta.url)), { '#cli/support': join(SRC, 'cli-support.js'), leakdiff: join(SRC, 'index.js'), 'leakdiff/agent': join(SRC, 'agent.js') })
  t.true(files.includes('cli-support.js') && files.includes('agent/request-series.js'), files.join(' '))
  // The agent's pieces a command calls come from their own modules: the `leakdiff/agent` entry
  // would load its signal listener, watch mode and series writer, which no command runs.
  for (const file of ['agent.js', 'agent/start-agent.js', 'agent/signal-listener.js', 'agent/watch.js', 'agent/series-writer.js']) {
    t.false(files.includes(file), file)
  }
  for (const dir of ['pipeline/', 'diff/diff-heaps', 'sources/source-locator', 'signatures/match-signatures', 'signatures/index', 'syntax/']) {
    t.deepEqual(files.filter((file) => file.startsWith(dir)), [], dir)
  }
  t.deepEqual(packages.filter((name) => /acorn|trace-mapping|lru-cache/.test(name)), [])
})
