// Command-line mistakes as the CLI's own process shows them: what yargs refuses, and a check's
// error, each one line with exit 2 before any snapshot is read. The checks' messages: usage.test.js.
import test from 'ava'
import { execFile } from 'node:child_process'
import { copyFile, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { leakdiff } from '../helpers/run-cli.js'
import { tempDir } from '../helpers/temp-dir.js'

/** @param {string} stderr */
function errorLines (stderr) {
  return stderr.split('\n').filter((line) => line !== '' && !line.startsWith('Run \'leakdiff --help\''))
}

test('a misspelt --fail-on id, an invalid --format choice and an --output that is a directory: one line each, exit 2, before any snapshot is read', async (t) => {
  const missing = ['missing-a.heapsnapshot', 'missing-b.heapsnapshot']
  const [failOn, format, output] = await Promise.all([
    leakdiff([...missing, '--fail-on', 'unbounded-collection,forgoten-timer']),
    leakdiff([...missing, '--format', 'xml']),
    leakdiff([...missing, '-o', await tempDir('leakdiff-usage-')])
  ])
  for (const { stdout, stderr, code } of [failOn, format, output]) {
    t.is(code, 2, stderr)
    t.is(stdout, '')
    t.is(errorLines(stderr).length, 1, stderr)
  }
  t.regex(failOn.stderr, /^leakdiff: --fail-on expects 'any' or signature ids \(.*forgotten-timer.*\), got 'forgoten-timer'\n/)
  t.deepEqual(errorLines(format.stderr), ['leakdiff: Invalid values: Argument: format, Given: "xml", Choices: "text", "json", "markdown", "junit", "html"'])
  t.regex(output.stderr, /^leakdiff: Cannot write the report to .*: it is a directory\n/)
})

test('--version prints leakdiff\'s own version when installed in a project whose package.json has another', async (t) => {
  const root = fileURLToPath(new URL('../../', import.meta.url))
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))
  const project = await tempDir('leakdiff-project-')
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'some-service', version: '9.9.9', type: 'module' }))
  // As npm installs it: the package in node_modules/leakdiff, its dependencies beside it (yargs
  // among them, whose ES module build looks for a package.json above the node_modules it is in).
  const installed = join(project, 'node_modules', 'leakdiff')
  await mkdir(installed, { recursive: true })
  for (const name of await readdir(join(root, 'node_modules'))) await symlink(join(root, 'node_modules', name), join(project, 'node_modules', name))
  await copyFile(join(root, 'package.json'), join(installed, 'package.json'))
  for (const dir of ['cli', 'src']) await symlink(join(root, dir), join(installed, dir))
  const { stdout } = await promisify(execFile)(process.execPath, ['--preserve-symlinks', '--preserve-symlinks-main', join(installed, 'cli', 'leakdiff.js'), '--version'], { cwd: project })
  t.is(stdout, `${version}\n`)
})
