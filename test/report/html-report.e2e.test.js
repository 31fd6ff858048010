// The HTML report in a real browser: the report of a real diff of fixture snapshots, opened from
// file:// in headless Chromium, dark as the reader prefers; it fails on a console error, an
// uncaught error or any request that leaves the file. What the pages carry and how they are made
// safe are html-report.test.js's string checks: one page shows what only a browser shows, the
// page's script drawing and answering the reader.
import test from 'ava'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { renderHtmlReport } from 'leakdiff'
import { foldPath } from '../../src/report/render-path.js'
import { launchBrowser, PAGE_STEP_MS, TEST_OUTPUT } from '../helpers/browser.js'
import { sharedDiff } from '../helpers/fixture-reports.js'
import { scaledMs } from '../helpers/load-deadline.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { ROOT } from '../helpers/fixture-source.js'
import { tempDir } from '../helpers/temp-dir.js'

const { browser, reason } = await launchBrowser()
if (!browser) console.warn(`test/report/html-report.e2e.test.js skipped: ${reason}`)
const browserTest = browser ? test : test.skip
test.after.always(() => browser?.close())

const listeners = captureFixture('signatures/listener-accumulation')

/**
 * Opens a report file in a new page that records console errors, uncaught errors, dialogs and every
 * request that is not the file itself (and blocks it).
 * @param {import('ava').ExecutionContext} t  the page closes when the test ends
 * @param {string} file
 * @param {{colorScheme?: 'light' | 'dark'}} [options]
 */
async function open (t, file, { colorScheme = 'light' } = {}) {
  const page = await /** @type {import('playwright-core').Browser} */ (browser).newPage({ viewport: { width: 1100, height: 900 }, colorScheme, permissions: ['clipboard-read', 'clipboard-write'] })
  t.teardown(() => page.close())
  page.setDefaultTimeout(scaledMs(PAGE_STEP_MS))
  const problems = /** @type {string[]} */ ([])
  const url = pathToFileURL(file).href
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`) })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`)
    dialog.dismiss().catch(() => {})
  })
  await page.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue()
    problems.push(`request: ${route.request().url()}`)
    return route.abort()
  })
  await page.goto(url)
  return { page, problems }
}

/**
 * Renders a report to a file in a new directory.
 * @param {Parameters<typeof renderHtmlReport>[0]} report
 * @param {string} name
 */
async function writeHtml (report, name) {
  const file = join(await tempDir('leakdiff-html-'), name)
  const html = renderHtmlReport(report, { cwd: ROOT })
  await writeFile(file, html)
  return { file, html }
}

/**
 * The class table's rows as shown: name and the text of every cell, visible rows only.
 * @param {import('playwright-core').Page} page
 */
function visibleRows (page) {
  return page.$$eval('table.classes tbody tr', (rows) => rows.filter((row) => !row.hidden).map((row) => [...row.cells].map((cell) => cell.textContent ?? '')))
}

browserTest('a diff report, dark: verdict, finding cards, a folded path that opens, the class table sorted by every column and filtered', async (t) => {
  const { files } = await listeners
  const json = await sharedDiff(files, { cwd: ROOT })
  // The sources layer gives the lines around the first finding's location, read from the file on disk.
  const location = json.findings[0].location
  if (location === null) throw new Error('the listener finding has no location')
  const source = (await readFile(join(ROOT, location.file), 'utf8')).split('\n')
  const start = Math.max(1, location.line - 3)
  t.like(json.findings[0].source, { file: location.file, start })
  const { file: output, html } = await writeHtml(json, 'listeners.html')
  t.true(html.length < 1_000_000, `${html.length} bytes`)
  t.true(html.startsWith('<!doctype html>'))

  const { page, problems } = await open(t, output, { colorScheme: 'dark' })
  const background = await page.locator('body').evaluate((body) => body.ownerDocument.defaultView?.getComputedStyle(body).backgroundColor)
  t.is(background, 'rgb(13, 17, 23)')
  t.is(await page.textContent('#verdict'), 'LEAK')
  t.is(await page.textContent('#reason'), json.reason)
  const cards = page.locator('article.finding')
  t.is(await cards.count(), json.findings.length)
  t.true(json.findings.length > 0)
  for (const [i, finding] of json.findings.entries()) {
    const text = await cards.nth(i).textContent() ?? ''
    t.true(text.includes(finding.signature))
    t.true(text.includes(finding.title))
    if (finding.location) t.true(text.includes(`${finding.location.file}:${finding.location.line}:${finding.location.column}`))
    t.true(text.includes(finding.fix.summary))
  }
  // Without sidecars the chart has the snapshots' totals per step, and says what is missing.
  t.deepEqual(await page.$$eval('.chart svg polyline', (nodes) => nodes.map((node) => node.getAttribute('class'))), ['series k-retained'])
  t.is(await page.locator('.chart svg circle').count(), files.length)
  t.true((await page.textContent('.chart') ?? '').includes('No agent sidecars'))
  const marked = cards.nth(0).locator('.source li.marked')
  t.is(await marked.count(), 1)
  t.is(await marked.textContent(), `${location.line}${source[location.line - 1]}`)
  t.is(await cards.nth(0).locator('.source li').count(), Math.min(location.line + 3, source.length) - start + 1)
  // The fix's copy button puts the snippet on the clipboard (of the page in front: other tests' pages
  // may be open at the same time).
  await page.bringToFront()
  await cards.nth(0).locator('.code button').click()
  t.is(await page.evaluate(() => navigator.clipboard.readText()), json.findings[0].fix.snippet.replace(/\n+$/, ''))

  // The first finding's first fold of engine hops: closed, opens on a click and lists its steps.
  const hops = foldPath(json.findings[0].path, { cwd: ROOT })
  const foldIndex = hops.filter((hop) => hop.folded).findIndex((hop) => hop.steps.length > 0)
  t.true(foldIndex >= 0, 'the listener path has engine hops to fold')
  const fold = cards.nth(0).locator('details.fold').nth(foldIndex)
  const steps = fold.locator('ol > li')
  t.false(await fold.evaluate((node) => /** @type {HTMLDetailsElement} */ (node).open))
  t.false(await steps.first().isVisible())
  await fold.locator('summary').click()
  t.true(await fold.evaluate((node) => /** @type {HTMLDetailsElement} */ (node).open))
  t.true(await steps.first().isVisible())
  t.is(await steps.count(), hops.filter((hop) => hop.folded)[foldIndex].steps.length)
  // From the keyboard: the summary takes the focus, Enter closes the fold again.
  await fold.locator('summary').focus()
  await page.keyboard.press('Enter')
  t.false(await fold.evaluate((node) => /** @type {HTMLDetailsElement} */ (node).open))

  // Every column sorts, both ways, by the report's numbers (the page shows them rounded).
  const byName = new Map(json.classes.slice(0, 10).map((row) => [row.name, row]))
  const headers = page.locator('table.classes thead th')
  const keys = await headers.evaluateAll((ths) => ths.map((th) => th.getAttribute('data-key') ?? ''))
  t.deepEqual(keys, ['name', 'newCount', 'deletedCount', 'countDelta', 'sizeDelta', 'retainedSizeDelta'])
  for (const [column, key] of keys.entries()) {
    // A first click on a number sorts it largest first, on the name A to Z; the next reverses.
    const first = key === 'name' ? 'ascending' : 'descending'
    for (const expected of [first, first === 'ascending' ? 'descending' : 'ascending']) {
      await headers.nth(column).locator('button').click()
      t.is(await headers.nth(column).getAttribute('aria-sort'), expected)
      const values = (await visibleRows(page)).map(([name]) => /** @type {any} */ (byName.get(name))?.[key])
      t.is(values.length, byName.size)
      const sorted = [...values].sort((a, b) => (typeof a === 'number' ? a - b : String(a).localeCompare(String(b))))
      t.deepEqual(values, expected === 'ascending' ? sorted : sorted.reverse(), `${key} ${expected}`)
    }
  }
  // From the keyboard: a header takes the focus and Enter sorts by it.
  await headers.nth(1).locator('button').focus()
  await page.keyboard.press('Enter')
  t.is(await headers.nth(1).getAttribute('aria-sort'), 'descending')
  // The filter keeps the rows whose name holds the text, whatever its case.
  const query = 'ARRAY'
  await page.fill('table.classes >> xpath=../../.. >> input[type=search]', query)
  const shown = (await visibleRows(page)).map(([name]) => name).sort()
  t.deepEqual(shown, [...byName.keys()].filter((name) => name.toLowerCase().includes(query.toLowerCase())).sort())
  t.true(shown.length > 0 && shown.length < byName.size)
  await page.fill('input[type=search]', '')
  t.is((await visibleRows(page)).length, byName.size)

  await page.screenshot({ path: join(TEST_OUTPUT, 'html-report-listeners.png'), fullPage: true })
  t.deepEqual(problems, [])
})
