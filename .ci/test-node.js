// Runs the test suite (or some test files) under another Node.js major version:
//
//   npm run test:node -- 24 [test/analysis/devtools-parity.test.js ...]
//
// Snapshots differ from one V8 to the next (new internal classes, other holder chains), and users
// run leakdiff on snapshots from the Node they run in production. The suite's fixture programs run
// under the Node that runs AVA, so putting another Node first on PATH makes every snapshot in the
// suite come from that version. The binary comes from the npm registry (node-<os>-<arch>@<major>,
// the packages the `node` package installs) into node_modules/.cache/leakdiff-node/<major>.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const OS = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform]
const [major, ...files] = process.argv.slice(2)

if (!/^\d+$/.test(major ?? '') || OS === undefined) {
  console.error(`usage: npm run test:node -- <major> [test files]  (got ${JSON.stringify(major ?? '')} on ${process.platform})`)
  process.exit(2)
}

const pkg = `node-${OS}-${process.arch}`
const dir = join(ROOT, 'node_modules', '.cache', 'leakdiff-node', major)
const bin = join(dir, 'node_modules', pkg, 'bin')
if (!existsSync(bin)) {
  mkdirSync(dir, { recursive: true })
  run('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `${pkg}@${major}`], process.env)
}

const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}` }
run('node', ['--version'], env)
// Lint and the type check do not depend on the runtime: only the tests run again.
run('npx', ['ava', ...files], env)

/**
 * @param {string} command
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 */
function run (command, args, env) {
  const { status } = spawnSync(command, args, { cwd: ROOT, env, stdio: 'inherit', shell: process.platform === 'win32' })
  if (status !== 0) process.exit(status ?? 1)
}
