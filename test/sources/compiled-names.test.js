// A TypeScript service compiled by tsc to CommonJS (fixtures/sources/cjs-service): the array it
// imports by name (`import { auditTrail } from './audit'`) is held, in the code that ran, by
// `const audit_1 = require("./audit")` in dist/server.js. Paths name the module by the source it
// was compiled from and the import by the file it names, as written.
import test from 'ava'
import { renderDiffReport } from 'leakdiff'
import { compiledCjsService } from '../helpers/compiled-service.js'
import { sharedDiff } from '../helpers/fixture-reports.js'
import { ROOT } from '../helpers/fixture-source.js'

const SERVER = 'fixtures/sources/cjs-service/src/server.ts'

/** @param {boolean} readSources */
async function reportOf (readSources) {
  const { files } = await compiledCjsService()
  return sharedDiff(files, { top: 0, cwd: ROOT, readSources })
}

test('the holder of a growing import: module src/server.ts → audit → auditTrail', async (t) => {
  const report = await reportOf(true)
  const finding = report.findings.find((f) => f.signature === 'growing-array')
  if (finding === undefined) return t.fail(report.findings.map((f) => f.signature).join(', '))
  const row = report.growth.find((g) => g.owner.id === finding.owner.id)
  t.is(row?.pathText, `(GC roots) → module ${SERVER} → audit → auditTrail (Array)`)
  const [module, variable, array] = finding.path.slice(-3)
  // What ran stays in the JSON beside the names shown.
  t.like(module, { originalModule: SERVER })
  t.regex(String(module.module), /[\\/]dist[\\/]server\.js$/)
  t.like(variable, { edge: 'audit', edgeType: 'context', generatedEdge: 'audit_1' })
  t.like(array, { edge: 'auditTrail', node: 'Array' })
  const text = renderDiffReport(report, { format: 'text', color: false, width: 200 })
  t.true(text.includes(`module ${SERVER} → audit → auditTrail (Array)`), text)
  t.false(text.includes('audit_1'), text)
})

test('without the sources (readSources: false) the path names the code that ran', async (t) => {
  const report = await reportOf(false)
  const finding = report.findings.find((f) => f.signature === 'growing-array')
  const row = report.growth.find((g) => g.owner.id === finding?.owner.id)
  t.regex(String(row?.pathText), /→ module \S*dist\/server\.js → audit_1 → auditTrail \(Array\)$/)
})
