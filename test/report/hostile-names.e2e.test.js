// Names from the heap that would do harm (fixtures/programs/report/hostile-names.js) where only a
// process shows them: the CLI's own process in a GitHub Actions job (it reads GITHUB_ACTIONS and
// GITHUB_STEP_SUMMARY from its environment, and no name from the heap makes a workflow command).
// Each format's escaping, and what assertNoLeak throws: hostile-names.test.js.
import test from 'ava'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { checkGithubOutput, checkMarkdown } from '../helpers/hostile-checks.js'
import { leakdiff } from '../helpers/run-cli.js'
import { tempDir } from '../helpers/temp-dir.js'

test('the CLI under GitHub Actions: the report is a block without commands, the step summary escapes Markdown, the error line no escapes', async (t) => {
  const { files } = await captureFixture('report/hostile-names')
  const summary = join(await tempDir('leakdiff-hostile-gh-'), 'summary.md')
  const { code, stdout, stderr } = await leakdiff([...files, '--fail-on', 'any'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary })
  t.is(code, 1)
  checkGithubOutput(t, stdout, stderr)
  checkMarkdown(t, await readFile(summary, 'utf8'))
})
