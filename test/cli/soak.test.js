// How `leakdiff soak` ends its report, run in this process (emitReport with the soak's own gates,
// as cli/commands/soak.js calls it) on a real listener leak: diff/listeners adds a `config` listener
// per request, as fixtures/soak/leaky-server.js does. The soak's processes: soak.e2e.test.js.
import test from 'ava'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_GATES } from 'leakdiff'
import { emitReport } from '../../cli/report-output.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { gateArgv, inProcess } from '../helpers/cli-in-process.js'
import { tempDir } from '../helpers/temp-dir.js'
import { sharedDiff } from '../helpers/fixture-reports.js'

test('--allow on soak: the listener leak waved through by its signature passes (exit 0), still reported, no HTML report', async (t) => {
  const { files } = await captureFixture('diff/listeners')
  const report = await sharedDiff(files)
  const html = join(await tempDir('leakdiff-soak-'), 'leakdiff-report.html')
  /** @param {Parameters<typeof gateArgv>[0]} flags */
  const end = (flags) => inProcess(() => emitReport(report, { format: 'text', color: false, ...gateArgv(flags) }, { defaultGates: DEFAULT_GATES, suiteName: 'leakdiff soak', htmlOnFailure: html }))
  const allowed = await end({ allow: 'listener-accumulation' })
  t.is(allowed.code, 0, allowed.stderr)
  t.regex(allowed.stdout, /listener-accumulation {3}confidence/)
  t.regex(allowed.stderr, /^leakdiff: passed on a leak verdict: 1 finding allowed \(listener-accumulation\)/)
  t.false(existsSync(html))
  // Without it the soak's gates fail the same report, and the HTML report is written.
  const failed = await end({})
  t.is(failed.code, 1)
  t.true(failed.stderr.includes(`leakdiff: HTML report written to ${html}\n`))
})
