// Names from the heap that would do harm printed as they are (fixtures/programs/report/hostile-names.js:
// HTML, Markdown, XML, a workflow command, ANSI escapes, newlines), through every report format of
// the fixture's real diff: each format escapes them its own way, and the JSON keeps them exact.
import test from 'ava'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { evaluateGates, renderDiffReport, renderGithubAnnotations, renderJunitReport, renderInspectReport } from 'leakdiff'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { ROOT } from '../helpers/fixture-source.js'
import { emitReport } from '../../cli/report-output.js'
import { gateArgv, inProcess, inspect } from '../helpers/cli-in-process.js'
import { checkGithubOutput, checkMarkdown, CONTROL } from '../helpers/hostile-checks.js'
import { tempDir } from '../helpers/temp-dir.js'
import { readXml } from '../helpers/xml.js'
import { sharedDiff, sharedInspect } from '../helpers/fixture-reports.js'
import { leakError } from '../../src/soak/assert-no-leak.js'
import { currentThread } from '../../src/agent/thread-info.js'

/** @type {string[]} */
let files
/** @type {string} */
let hostile
/** @type {Awaited<ReturnType<typeof diffSnapshots>>} */
let report

test.before(async () => {
  const fixture = await captureFixture('report/hostile-names')
  files = fixture.files
  hostile = fixture.report.hostile
  report = await sharedDiff(files, { top: 0, cwd: ROOT })
})

// SGR colour codes are the renderer's own (chalk); any other control character came from the heap.
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g

test('the fixture\'s names reach the report: the leaks are found and named by the hostile string', (t) => {
  t.true(report.findings.length >= 2)
  t.true(report.classes.some((row) => row.name.includes('</script>')), 'a class is named by the property')
  t.true(report.findings.some((finding) => finding.title.includes(hostile)), 'a finding\'s title holds the name')
  t.true(report.findings.some((finding) => finding.path.some((step) => step.edge === hostile)), 'and its path')
})

test('text: no control character from the heap reaches the terminal; the renderer keeps its colours; the names show as escapes', (t) => {
  for (const color of [false, true]) {
    const text = renderDiffReport(report, { format: 'text', color, width: 100 })
    if (color) t.true(SGR.test(text), 'coloured')
    t.false(CONTROL.test(text.replace(SGR, '')), 'only newlines and colour codes')
    t.true(text.includes('\\u001b[31mRED\\u001b[0m\\u001b]0;title\\u0007'), 'the escape sequences are shown, escaped')
    t.true(text.includes('line\\nbreak\\r::error'), 'the newline and the carriage return are shown, escaped')
    t.true(text.includes('<img src=x onerror=alert(1)>'), 'printable text is kept as it is')
  }
})

test('inspect text: the same escaping', async (t) => {
  const inspect = await sharedInspect(files[2], { top: 0 })
  const text = renderInspectReport(inspect, { format: 'text', color: true, width: 100 })
  t.true(inspect.classes.some((row) => row.name.includes('</script>')))
  t.false(CONTROL.test(text.replace(SGR, '')))
  t.true(text.includes('<img'))
})

test('JSON keeps every name exactly, with control characters escaped by JSON itself', (t) => {
  const text = renderDiffReport(report, { format: 'json' })
  t.false(CONTROL.test(text.replaceAll('\n', '')))
  t.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(report)))
  t.true(JSON.parse(text).findings.some((/** @type {{title: string}} */ finding) => finding.title.includes(hostile)))
})

test('Markdown: names cannot add emphasis, links, HTML, table cells or mentions', (t) => {
  const markdown = renderDiffReport(report, { format: 'markdown' })
  checkMarkdown(t, markdown)
  t.true(markdown.includes('\\*\\*bold\\*\\* \\[link\\](http://example.invalid)'), 'Markdown in prose is escaped, not dropped')
})

test('JUnit XML: names cannot end an attribute or an element; what XML 1.0 forbids is not written', (t) => {
  const gates = evaluateGates(report, { failOn: 'any' })
  const xml = renderJunitReport(report, gates)
  const elements = readXml(xml)
  t.deepEqual([...new Set(elements.map((e) => e.name))].sort(), ['failure', 'properties', 'property', 'testcase', 'testsuite', 'testsuites'])
  // eslint-disable-next-line no-control-regex
  t.false(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(xml))
  const failure = elements.find((e) => e.name === 'failure' && e.text.includes('</script>'))
  t.truthy(failure, 'the name is in the failure text, decoded')
  t.true(failure?.text.includes(']]></failure><x a="&amp;">'))
  t.true(failure?.text.includes('\\u001b[31mRED'), 'control characters are shown as escapes')
  t.regex(failure?.text ?? '', /\n {10}list\.push\(record\)\n {10}if \(list\.length > 1000\)/, 'the fix\'s code keeps its lines')
  t.true(elements.some((e) => Object.values(e.attributes).some((value) => value.includes('</script>'))), 'and in attributes')
})

test('GitHub annotations: one command per line, the name cannot end it or add properties', (t) => {
  // The fixture's finding with a location, as if the script's path and the function's name were
  // the hostile string too (both come from the heap): the annotation's properties hold them.
  const located = report.findings.find((finding) => finding.location !== null)
  const other = report.findings.find((finding) => finding.title.includes(hostile))
  t.truthy(located && other)
  const finding = { ...located, title: other?.title, location: { ...located?.location, file: `src/${hostile}.js`, function: hostile } }
  const hostileReport = /** @type {typeof report} */ ({ ...report, findings: [finding] })
  const gates = evaluateGates(hostileReport, { failOn: 'any' })
  const text = renderGithubAnnotations(hostileReport, gates)
  t.true(text.length > 0)
  t.false(text.includes('\r'))
  const lines = text.split('\n').filter((line) => line !== '')
  t.true(lines.length >= 1)
  for (const line of lines) {
    const match = /^::(error|warning) ([^:]*)::(.*)$/.exec(line)
    t.truthy(match, line)
    const properties = (match?.[2] ?? '').split(',').map((pair) => pair.split('=')[0])
    t.deepEqual(properties, ['file', 'line', 'col', 'title'])
  }
  t.true(text.includes(`file=src/${hostile.replaceAll('\u001b', '\\u001b').replaceAll('\u0007', '\\u0007').replaceAll('\n', '\\n').replaceAll('\r', '\\r').replaceAll(':', '%3A').replaceAll(',', '%2C')}.js,line=`))
  t.true(text.includes('line\\nbreak\\r::error file=x::injected'), 'the injected command is message text')
})

// The CLI's end (emitReport) and the inspect command, run in this process under GitHub Actions'
// variables; hostile-names.e2e.test.js runs the CLI itself once so.
test('the CLI under GitHub Actions: the report is a block without commands, the step summary escapes Markdown, the error line no escapes', async (t) => {
  const dir = await tempDir('leakdiff-hostile-gh-')
  const summary = join(dir, 'summary.md')
  const { code, stdout, stderr } = await inProcess(() => emitReport(report, { format: 'text', color: false, ...gateArgv({ 'fail-on': 'any' }) }, { defaultGates: { verdict: true } }),
    { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary })
  const inspected = await inspect(files[2], {}, { GITHUB_ACTIONS: 'true' })
  t.is(inspected.code, 0)
  t.regex(inspected.stdout, /^::stop-commands::(\S+)\n[^]*\n::\1::\n$/)
  t.is(code, 1)
  checkGithubOutput(t, stdout, stderr)
  checkMarkdown(t, await readFile(summary, 'utf8'))
})

test('assertNoLeak: the error\'s message (the text report and the failed gate) holds no control character from the heap', (t) => {
  // The finding named by the hostile string first, so that the failed gate's line quotes it too.
  const named = report.findings.filter((finding) => finding.title.includes(hostile))
  t.true(named.length > 0)
  const first = { ...report, findings: [...named, ...report.findings.filter((finding) => !named.includes(finding))] }
  const gates = evaluateGates(first, { failOn: 'any', maxGrowth: 0, allow: [] })
  const error = leakError([{ threadId: currentThread().id, name: null, startedAt: null, report: first, gates }], undefined)
  t.is(error.code, 'LEAKDIFF_LEAK')
  const [line] = error.message.split('\n')
  t.true(line.startsWith('assertNoLeak: leak found: ') && line.includes('\\u001b[31mRED'), line)
  t.true(error.message.includes('\\u001b[31mRED'), 'the name is in the message, escaped')
  t.false(CONTROL.test(error.message.replaceAll('\n', '')))
})
