// The leakdiff/ava macro in a real AVA run: a project of its own (package.json with its AVA config,
// node_modules/leakdiff and node_modules/ava linked to this checkout), run by AVA's CLI in a child process.
import test from 'ava'
import { execFile } from 'node:child_process'
import { symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { makeInstallDir, ROOT } from '../helpers/agent-child.js'
import { scaledMs, scaledSeconds } from '../helpers/load-deadline.js'

const run = promisify(execFile)

// The inner AVA's and the macro's time limits (2 min each by default) stretch with the load, as ours do.
const LIMIT_MS = scaledMs(120_000)
const TEST_FILE = `import test from 'ava'
import { EventEmitter } from 'node:events'
import { noLeak } from 'leakdiff/ava'

const bus = new EventEmitter()
bus.setMaxListeners(0)

test('handler does not leak', noLeak, async (i) => {
  const state = { i }
  bus.on('reload', () => state.i)
}, { iterations: 200, warmup: 20, timeout: ${LIMIT_MS} })

test('clean handler', noLeak, async (i) => {
  const local = new EventEmitter()
  local.on('reload', () => i)
  return local.listenerCount('reload')
}, { iterations: 200, warmup: 20, timeout: ${LIMIT_MS} })
`

test('a failing noLeak test shows the finding card with its source line; passing ones pass; AVA exits 1', async (t) => {
  const { dir, cleanup } = await makeInstallDir()
  t.teardown(cleanup)
  await symlink(join(ROOT, 'node_modules', 'ava'), join(dir, 'node_modules', 'ava'), 'dir')
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module', ava: { files: ['leak.test.js'], timeout: scaledSeconds(120_000) } }))
  await writeFile(join(dir, 'leak.test.js'), TEST_FILE)
  const { FORCE_COLOR, ...env } = process.env
  const result = await run(process.execPath, [join(dir, 'node_modules', 'ava', 'entrypoints', 'cli.mjs')], { cwd: dir, env: { ...env, NO_COLOR: '1' } })
    .then(({ stdout, stderr }) => ({ stdout, stderr, code: 0 }), (/** @type {any} */ error) => ({ stdout: error.stdout, stderr: error.stderr, code: error.code }))
  const output = result.stdout + result.stderr
  t.is(result.code, 1, output)
  t.regex(output, /✘ \[fail\]: handler does not leak assertNoLeak: leak found: listener-accumulation at leak\.test\.js:10:/)
  // The card itself, in AVA's failure details.
  t.regex(output, /listener-accumulation {3}confidence \d\.\d\d/)
  // Once: the report is long, and AVA prints a failure's message twice.
  t.is(output.match(/listener-accumulation {3}confidence/g)?.length, 1, output)
  t.is(output.match(/Growth by owner/g)?.length, 1)
  t.regex(output, /leak\.test\.js:10:\d+/)
  t.regex(output, /fix {2}remove the listener|fix {2}\S/)
  t.regex(output, /✔ clean handler/)
  t.regex(output, /1 test failed/)
})
