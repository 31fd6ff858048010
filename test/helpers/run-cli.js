// Runs the leakdiff CLI in a child process, as a user's shell would, for the CLI tests.
import { execFile } from 'node:child_process'
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
 * @returns {Promise<{stdout: string, stderr: string, code: number}>}
 */
export async function leakdiff (args, env = {}) {
  const { FORCE_COLOR, NO_COLOR, GITHUB_ACTIONS, GITHUB_STEP_SUMMARY, ...inherited } = process.env
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: { ...inherited, NO_COLOR: '1', ...env } })
    return { stdout, stderr, code: 0 }
  } catch (error) {
    const { stdout, stderr, code } = /** @type {any} */ (error)
    return { stdout, stderr, code }
  }
}
