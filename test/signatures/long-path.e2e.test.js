// Findings do not depend on where the code lives. A fixture program copied under a directory with a
// long path (the same layout below it) gives the finding it gives in the checkout: module URLs are
// then long, and what tells them apart is at their end.
import test from 'ava'
import { cp, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { markedLocation, sharedDiff, stepsOf } from '../helpers/fixture-reports.js'
import { ROOT } from '../helpers/fixture-source.js'
import { execFileWithin } from '../helpers/load-deadline.js'
import { tempDir } from '../helpers/temp-dir.js'

/** The files the node-owned program runs, relative to the repository root. */
const FILES = ['fixtures/programs/lib/http-rounds.js', 'fixtures/programs/lib/snapshot.js',
  'fixtures/programs/signatures/node-owned.js', 'fixtures/programs/signatures/node-owned-page.js', 'fixtures/programs/signatures/node-owned-plugin.cjs']

/**
 * The diff of fixtures/programs/<program>.js run from a copy under a directory whose path is about
 * `length` characters long, with paths shown from that copy's root.
 * @param {number} length
 */
async function reportInLongPath (length) {
  const base = await tempDir('leakdiff-long-path-')
  // Path components are at most 255 bytes: a long path is several long names.
  const parts = []
  for (let left = length - base.length; left > 0; left -= 201) parts.push('d'.repeat(Math.min(200, Math.max(1, left - 1))))
  const root = join(base, ...parts)
  for (const file of FILES) await cp(join(ROOT, file), join(root, file))
  await writeFile(join(root, 'package.json'), '{"type": "module"}\n')
  const out = join(root, 'out')
  await mkdir(out)
  const program = join(root, 'fixtures/programs/signatures/node-owned.js')
  const run = await execFileWithin(process.execPath, ['--expose-gc', program, out], { cwd: root }, 60_000)
  if (run.code !== 0) throw new Error(`node-owned.js in ${root} ${run.timedOut ? 'did not end in time' : `exited with ${run.code ?? run.signal}`}:\n${run.stderr}`)
  const report = await sharedDiff([1, 2, 3].map((k) => join(out, `${k}.heapsnapshot`)), { top: 0, cwd: root })
  const { perRound } = JSON.parse(run.stdout)
  return { root, report, perRound }
}

test('an import() under a new URL per request, run from a 300-character path: the finding is at the import, with keys that keep their ?v=N', async (t) => {
  const { root, report, perRound } = await reportInLongPath(300)
  t.true(root.length >= 280, root)
  const loaders = report.findings.filter((f) => f.signature === 'unbounded-collection' && f.evidence.nodeModule !== undefined)
  t.is(loaders.length, 1, loaders.map((f) => f.title).join('\n'))
  const [finding] = loaders
  t.deepEqual(finding.location, markedLocation('signatures/node-owned', '// leak: import', 'import('))
  t.is(finding.evidence.locationRole, 'imports it')
  const keys = /** @type {string[]} */ (finding.evidence.sampleKeys)
  t.true(keys.length > 0 && keys.every((key) => /node-owned-page\.js\?v=\d+$/.test(key)), keys.join(', '))
  // Three different keys, and each short enough to read.
  t.is(new Set(keys).size, keys.length)
  t.true(keys.every((key) => key.length <= 80), keys.join(', '))
  t.false(finding.evidence.notes.some((note) => note.includes('does not show which code imports it')), finding.evidence.notes.join('\n'))
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.regex(finding.fix.snippet, /await import\('\.\/node-owned-page\.js'\)/)
})
