// `leakdiff capture` signals only a process whose agent left its marker: a mistyped pid must not
// reach another program that catches SIGUSR2 (a shell's trap, nginx, gunicorn, unicorn).
import test from 'ava'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { writeFile } from 'node:fs/promises'
import { checkMarker, markerPath } from '../../src/agent/agent-marker.js'
import { leakdiff } from '../helpers/run-cli.js'
import { tempDir } from '../helpers/temp-dir.js'

/**
 * A bash that traps USR2 and TERM, each trap printing its name (TERM's then exits), in `dir`.
 * @param {string} dir
 */
async function trappingShell (dir) {
  const shell = spawn('bash', ['-c', 'trap "echo USR2" USR2; trap "echo TERM; exit 0" TERM; echo ready; while :; do sleep 0.05; done'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  shell.stdout.setEncoding('utf8').on('data', (chunk) => { output += chunk })
  // 'close', not 'exit': the process can end before its last lines are read from the pipe.
  const closed = once(shell, 'close')
  while (!output.includes('ready\n')) await once(shell.stdout, 'data')
  return {
    pid: /** @type {number} */ (shell.pid),
    /** Ends the shell by SIGTERM and resolves with every line it printed. */
    async stop () {
      // A USR2 sent before is pending or handled by now; bash runs pending traps in signal
      // order (USR2 is 12, TERM 15), so it would print USR2 before TERM ends it.
      shell.kill('SIGTERM')
      await closed
      return output.trim().split('\n')
    }
  }
}

test('a bash that traps USR2 receives nothing: one line, exit 2', async (t) => {
  const dir = await tempDir('leakdiff-guard-')
  const shell = await trappingShell(dir)
  const { stdout, stderr, code } = await leakdiff(['capture', String(shell.pid), '--dir', dir, '--timeout', '1s'])
  const lines = await shell.stop()
  t.is(code, 2)
  t.is(stdout, '')
  t.regex(stderr, new RegExp(`^leakdiff: Nothing was sent to pid ${shell.pid}: no leakdiff agent of pid ${shell.pid} writes to .*; --force sends SIGUSR2 anyway\\n$`))
  t.deepEqual(lines, ['ready', 'TERM'])
})

test('a marker left by a Node.js process that is gone does not vouch for the program now under its pid', async (t) => {
  const dir = await tempDir('leakdiff-guard-')
  const shell = await trappingShell(dir)
  t.teardown(() => shell.stop())
  // What an agent killed by SIGKILL leaves behind, its pid since taken by the shell.
  await writeFile(markerPath(dir, shell.pid), JSON.stringify({ kind: 'leakdiff-agent', pid: shell.pid, signal: 'SIGUSR2', execPath: process.execPath, startTime: '1' }), { mode: 0o600 })
  t.regex(/** @type {string} */ (await checkMarker(shell.pid, dir, 'SIGUSR2')), new RegExp(`^pid ${shell.pid} runs \\S*bash, not the Node\\.js of its agent's marker`))
  t.regex(/** @type {string} */ (await checkMarker(shell.pid, dir, 'SIGHUP')), /listens on SIGUSR2, not SIGHUP$/)
})
