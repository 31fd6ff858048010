// Runs the leakdiff CLI in a child process, as a user's shell would, for the CLI tests.
import { execFile } from 'node:child_process'
import { createReadStream } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const CLI = fileURLToPath(new URL('../../cli/leakdiff.js', import.meta.url))
const run = promisify(execFile)

/**
 * Runs the CLI without colour and without the parent's colour and CI settings (an empty
 * FORCE_COLOR forces colour too, and GITHUB_ACTIONS adds annotations); resolves with its output and
 * exit code whatever the code.
 * @param {string[]} args
 * @param {Record<string, string | undefined>} [env] added last: `{ FORCE_COLOR: '1', NO_COLOR: undefined }` colours
 * @param {{stdin?: string, cwd?: string}} [options] stdin: a file piped into the CLI's standard input;
 *   cwd: the directory it runs in (this process's by default)
 * @returns {Promise<{stdout: string, stderr: string, code: number}>}
 */
export async function leakdiff (args, env = {}, { stdin, cwd } = {}) {
  const { FORCE_COLOR, NO_COLOR, GITHUB_ACTIONS, GITHUB_STEP_SUMMARY, ...inherited } = process.env
  try {
    const child = run(process.execPath, [CLI, ...args], { env: { ...inherited, NO_COLOR: '1', ...env }, cwd, maxBuffer: 64 * 1024 * 1024 })
    const input = /** @type {import('node:stream').Writable} */ (child.child.stdin)
    if (stdin) createReadStream(stdin).pipe(input).on('error', () => {})
    else input.end()
    const { stdout, stderr } = await child
    return { stdout, stderr, code: 0 }
  } catch (error) {
    const { stdout, stderr, code } = /** @type {any} */ (error)
    return { stdout, stderr, code }
  }
}
