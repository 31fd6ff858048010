import test from 'ava'
import { diffSnapshots } from 'leakdiff'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { markedPosition, ROOT } from '../helpers/fixture-source.js'

const ID = 'unbounded-collection'
/** @type {Map<string, ReturnType<typeof diffSnapshots>>} */
const reports = new Map()

/**
 * One report per program, shared by the tests of this file.
 * @param {string} program
 */
function reportOf (program) {
  let report = reports.get(program)
  if (!report) {
    report = captureFixture(program).then(({ files }) => diffSnapshots(files, { top: 0, cwd: ROOT }))
    reports.set(program, report)
  }
  return report
}

const LEAKS = [
  { program: 'signatures/response-cache', marker: '// leak: cache', name: 'Map', edge: 'responseCache', kind: 'Map', values: '{body, headers}' },
  { program: 'signatures/user-sessions', marker: '// leak: sessions', name: 'Object', edge: 'sessionsByUser', kind: 'object', values: '{user, agent, pages}' }
]

for (const { program, marker, name, edge, kind, values } of LEAKS) {
  test(`${program}: the ${kind} is named, with the function that closes over it and its entries per snapshot`, async (t) => {
    const report = await reportOf(program)
    // Only this signature explains the row: the listener matcher, tried first, leaves it alone.
    t.deepEqual(report.findings.map((f) => f.signature), [ID])
    const [finding] = report.findings
    t.is(finding.owner.name, name)
    t.is(finding.path.at(-1)?.edge, edge)
    t.is(finding.path.at(-1)?.id, finding.owner.id)
    t.is(finding.evidence.kind, kind)

    const expected = markedPosition(program, marker, '(req, res) =>')
    t.deepEqual(finding.location, { ...expected, function: '' })
    t.is(finding.evidence.locationRole, 'closes over it')

    const { perRound } = (await captureFixture(program)).report
    const { counts, retained } = finding.evidence
    t.deepEqual([counts[1] - counts[0], counts[2] - counts[1]], [perRound, perRound])
    t.true(retained[0] < retained[1] && retained[1] < retained[2])
    const perEntry = /** @type {number} */ (finding.evidence.bytesPerEntry)
    t.is(perEntry, Math.round((retained[2] - retained[0]) / (counts[2] - counts[0])))
    t.true(perEntry > 100 && perEntry < 2000, String(perEntry))
    t.deepEqual(finding.evidence.keyClasses, ['(string)'])
    t.is(/** @type {string[]} */ (finding.evidence.valueClasses)[0], values)

    t.true(finding.confidence >= 0.9, String(finding.confidence))
    t.regex(finding.fix.snippet, /^import \{ LRUCache \} from 'lru-cache'\n/)
    t.regex(finding.fix.snippet, new RegExp(`const ${edge} = new LRUCache\\(\\{ max: \\d+, ttl: `))
  })

  test(`${program}-fixed: no finding`, async (t) => {
    const report = await reportOf(`${program}-fixed`)
    t.deepEqual(report.findings, [])
  })
}
