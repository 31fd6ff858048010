import test from 'ava'
import { isRising, markedLocation, perRoundOf, reportOf, stepsOf } from '../helpers/fixture-reports.js'

const ID = 'unbounded-collection'

const LEAKS = [
  { program: 'signatures/response-cache', marker: '// leak: cache', write: ['// adds: cache', 'responseCache.set('], name: 'Map', edge: 'responseCache', kind: 'Map', values: '{body, headers}' },
  { program: 'signatures/user-sessions', marker: '// leak: sessions', write: ['// adds: sessions', 'sessionsByUser[user] ??='], name: 'Object', edge: 'sessionsByUser', kind: 'object', values: '{user, agent, pages}' }
]

for (const { program, marker, write, name, edge, kind, values } of LEAKS) {
  test(`${program}: the ${kind} is named, with the line that adds to it, the function that closes over it and its entries per snapshot`, async (t) => {
    const report = await reportOf(program)
    // Only this signature explains the row: the listener matcher, tried first, leaves it alone.
    t.deepEqual(report.findings.map((f) => f.signature), [ID])
    const [finding] = report.findings
    t.is(finding.owner.name, name)
    t.is(finding.path.at(-1)?.edge, edge)
    t.is(finding.path.at(-1)?.id, finding.owner.id)
    t.is(finding.evidence.kind, kind)

    t.deepEqual(finding.location, markedLocation(program, write[0], write[1]))
    t.is(finding.evidence.locationRole, 'adds to it')
    t.deepEqual(finding.evidence.holderLocation, markedLocation(program, marker, '(req, res) =>'))

    const perRound = await perRoundOf(program)
    const { counts, retained } = finding.evidence
    t.deepEqual(stepsOf(counts), [perRound, perRound])
    t.true(isRising(retained))
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
