// Golden outputs: the report model and every renderer's output on a handful of real diffs and an
// inspect, from committed snapshots, pinned with t.snapshot (test/report/snapshots/golden.test.js.md
// is the readable copy). A change in a report's wording or numbers shows as a snapshot diff to
// review (`npx ava test/report/golden.test.js --update-snapshots` accepts it).
import test from 'ava'
import {
  DEFAULT_GATES, evaluateGates, renderDiffReport, renderGithubAnnotations,
  renderHtmlReport, renderInspectReport, renderJunitReport
} from 'leakdiff'
import { captureFixture, UNPACKED_DIR } from '../helpers/fixture-snapshots.js'
import { ROOT } from '../helpers/fixture-source.js'
import { sharedDiff, sharedInspect } from '../helpers/fixture-reports.js'

/**
 * What in a report depends on the machine rather than the heap: where the checkout lives and where
 * the test run unpacked the snapshots, and the sizes of the unpacked files, which hold those paths.
 * @param {string} text
 */
function portable (text) {
  // The unpacked snapshots' directories first: they lie inside the checkout's path.
  for (const dir of [UNPACKED_DIR, JSON.stringify(UNPACKED_DIR).slice(1, -1)]) {
    text = text.replace(new RegExp(`${dir.replace(/[^\w]/g, '\\$&')}/([^/"]+)-[0-9a-f]{16}`, 'g'), '<fixtures>/committed-$1')
  }
  return text.replaceAll(ROOT, '<checkout>/').replaceAll(JSON.stringify(ROOT).slice(1, -1), '<checkout>/')
}

/**
 * The report as another checkout would make it: paths from `<checkout>/` and `<fixtures>/`, and
 * no file sizes (an unpacked snapshot holds the checkout's path, so its size depends on it). The
 * renderers read only the model, so every output is rendered from this one: a line wrapped at a
 * width then breaks at the same place wherever the checkout lives.
 * @param {any} report
 */
function portableModel (report) {
  const model = JSON.parse(portable(JSON.stringify(report)))
  for (const snapshot of model.snapshots ?? [model.snapshot]) snapshot.bytes = 0
  return model
}

/**
 * The diffs pinned: a leak of each family the renderers lay out differently, a clean run, and a
 * pair from two processes (inconclusive).
 * @type {Record<string, () => Promise<any>>}
 */
const DIFFS = {
  'a Map that only grows (diff/map-cache)': async () => sharedDiff((await captureFixture('diff/map-cache')).files, { cwd: ROOT }),
  'listeners and a pipe never removed (signatures/abort-listeners)': async () => sharedDiff((await captureFixture('signatures/abort-listeners')).files, { cwd: ROOT }),
  'hostile names (report/hostile-names)': async () => sharedDiff((await captureFixture('report/hostile-names')).files, { cwd: ROOT }),
  'allocation stacks of library leaks (alloc/library-leaks)': async () => sharedDiff((await captureFixture('alloc/library-leaks')).files, { cwd: ROOT }),
  'a clean run (signatures/response-cache-fixed)': async () => sharedDiff((await captureFixture('signatures/response-cache-fixed')).files, { cwd: ROOT }),
  'two processes (inconclusive)': async () => {
    const [a] = (await captureFixture('diff/array-log')).files
    const [, b] = (await captureFixture('diff/object-cache')).files
    return sharedDiff([a, b], { cwd: ROOT })
  }
}

for (const [title, make] of Object.entries(DIFFS)) {
  test(`diff report: ${title}`, async (t) => {
    const report = portableModel(await make())
    const gates = evaluateGates(report, DEFAULT_GATES)
    t.snapshot(report, 'model (JSON)')
    t.snapshot(renderDiffReport(report, { format: 'text', color: false, width: 100 }), 'text')
    t.snapshot(renderDiffReport(report, { format: 'text', color: true, width: 100 }), 'text in colour')
    t.snapshot(renderDiffReport(report, { format: 'markdown' }), 'markdown')
    t.snapshot(renderJunitReport(report, gates), 'JUnit')
    t.snapshot(renderGithubAnnotations(report, gates), 'GitHub annotations')
    t.snapshot(stableHtml(renderHtmlReport(report, { cwd: '<checkout>/' })), 'HTML, without its volatile parts')
  })
}

test('inspect report: the engine fixture heap (engine/mixed-heap)', async (t) => {
  const { files } = await captureFixture('engine/mixed-heap')
  const report = portableModel(await sharedInspect(files[0], { top: 15 }))
  t.snapshot(report, 'model (JSON)')
  t.snapshot(renderInspectReport(report, { format: 'text', color: false, width: 100 }), 'text')
  t.snapshot(renderInspectReport(report, { format: 'text', color: true, width: 100 }), 'text in colour')
})

/**
 * The HTML page without what changes from run to run on the same report: the embedded scripts
 * and styles are the renderer's code, not the report, and the generation time.
 * @param {string} html
 */
function stableHtml (html) {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, (script) => script.includes('application/json') ? script : '<script>…</script>')
    .replace(/<style\b[^>]*>[\s\S]*?<\/style>/g, '<style>…</style>')
}
