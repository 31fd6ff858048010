// The service under a soak: a child process group with the capture agent loaded, its output kept
// short for error messages, and a stop that always ends it.
import { spawn } from 'node:child_process'
import { SoakError } from '../errors.js'

// `leakdiff: ready: kill -USR2 4121 writes ...` (start-agent.js), one per process that loads the agent.
const READY_LINE = /^leakdiff: ready: kill -\w+ (\d+) /
const TAIL_LINES = 40
// Node ends an uncaught error's output with the stack, the error's own properties, a blank line
// and its version (`Node.js v20.20.2`): what went wrong is the error's first line.
const ERROR_LINE = /^(?:Uncaught )?(?:[A-Z][\w$]*)?(?:Error|Exception)(?: \[\w+\])?:/
const NODE_VERSION_LINE = /^Node\.js v\d/
const STACK_FRAME = /^\s+at /

/**
 * @typedef {object} Service
 * @property {number} pid                the process group leader (the command itself)
 * @property {number[]} agentPids        processes whose agent said `ready`, in that order
 * @property {Promise<{code: number | null, signal: NodeJS.Signals | null}>} exited
 * @property {() => boolean} running
 * @property {() => string} lastLine     why the service ended, from its last output (lastWords: stderr first)
 * @property {(graceMs?: number) => Promise<void>} stop  SIGTERM to the group, SIGKILL after `graceMs`
 * @property {(onReady: () => void) => void} onAgentReady
 */

/**
 * Starts `command` (an argv) in its own process group, so that one signal reaches what it forks
 * (npm and its shell, a cluster's workers) and a Ctrl-C in the terminal reaches only us: the stop
 * stays ours to do.
 * @param {string[]} command
 * @param {{cwd?: string, env: NodeJS.ProcessEnv, onOutput?: (text: string, stream: 'stdout' | 'stderr') => void}} options
 * @returns {Promise<Service>} once the process is spawned
 */
export async function startService (command, { cwd, env, onOutput }) {
  const child = spawn(command[0], command.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  await new Promise((resolve, reject) => {
    child.once('spawn', resolve)
    child.once('error', (error) => reject(new SoakError(`Expected to start the service \`${command.join(' ')}\`, but ${error.message}`, { cause: error })))
  })
  const pid = /** @type {number} */ (child.pid)
  /** @type {number[]} */
  const agentPids = []
  /** @type {Array<() => void>} */
  const readyListeners = []
  /** @type {Record<'stdout' | 'stderr', string[]>} */
  const tails = { stdout: [], stderr: [] }
  /** @type {Record<'stdout' | 'stderr', string>} */
  const partial = { stdout: '', stderr: '' }
  for (const name of /** @type {const} */ (['stdout', 'stderr'])) {
    child[name].setEncoding('utf8').on('data', (/** @type {string} */ text) => {
      onOutput?.(text, name)
      const lines = (partial[name] + text).split('\n')
      partial[name] = lines.pop() ?? ''
      for (const line of lines) {
        const ready = name === 'stderr' ? READY_LINE.exec(line) : null
        if (ready) {
          agentPids.push(Number(ready[1]))
          for (const listener of readyListeners.splice(0)) listener()
        } else if (line.trim() !== '' && !line.startsWith('leakdiff: ')) {
          tails[name].push(line)
          if (tails[name].length > TAIL_LINES) tails[name].shift()
        }
      }
    })
  }
  /** @type {{code: number | null, signal: NodeJS.Signals | null} | undefined} */
  let exit
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal }
      resolve(exit)
    })
  })
  /** @type {Promise<void> | undefined} */
  let stopping

  return {
    pid,
    agentPids,
    exited: /** @type {Service['exited']} */ (exited),
    running: () => exit === undefined,
    lastLine: () => lastWords([...tails.stderr, partial.stderr.trim()]) || lastWords([...tails.stdout, partial.stdout.trim()]),
    onAgentReady: (listener) => { readyListeners.push(listener) },
    stop: (graceMs = 5000) => {
      stopping ??= (async () => {
        if (exit === undefined) {
          signalGroup(pid, 'SIGTERM')
          let timer
          const killed = new Promise((resolve) => {
            timer = setTimeout(() => resolve(signalGroup(pid, 'SIGKILL')), graceMs)
          })
          await Promise.race([exited, killed])
          clearTimeout(timer)
          await exited
        }
        // Whatever the leader left behind in its group (a shell's children) goes too.
        signalGroup(pid, 'SIGKILL')
      })()
      return stopping
    }
  }
}

/**
 * @param {number} pid
 * @param {NodeJS.Signals} signal
 */
function signalGroup (pid, signal) {
  try {
    process.kill(-pid, signal)
  } catch {}
}

/**
 * The line of a process's last output that says why it ended: the last error's first line
 * (`Error: Cannot find module ...`), else the last line that is neither a stack frame nor Node's
 * version.
 * @param {string[]} lines
 * @returns {string}
 */
export function lastWords (lines) {
  for (let i = lines.length - 1; i >= 0; i--) if (ERROR_LINE.test(lines[i])) return lines[i]
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]
    if (line.trim() !== '' && !NODE_VERSION_LINE.test(line) && !STACK_FRAME.test(line)) return line
  }
  return ''
}
