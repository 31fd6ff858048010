// What the benchmark scripts share: paths, command-line options, the machine's description, and
// a server process forked to be measured.
import { fork } from 'node:child_process'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const OUT = join(ROOT, 'bench', 'out')
export const DOC = join(ROOT, 'docs', 'benchmarks.md')

/**
 * The value after `--<name>` on the command line, or `fallback`.
 * @param {string} name
 * @param {string} fallback
 */
export function option (name, fallback) {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? fallback : process.argv[at + 1]
}

/** @param {number} ms */
export function sleep (ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** @param {number[]} values */
export function median (values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** The machine, as the benchmark notes name it. */
export function machineName () {
  return `${cpus()[0]?.model.trim()}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node.js ${process.version}`
}

/**
 * Forks a server script that prints `ready <port>` and, at the end, one JSON line.
 * @param {string} script
 * @param {string[]} args
 * @param {string[]} execArgv
 * @returns {{child: import('node:child_process').ChildProcess, port: Promise<number>, result: () => any}}
 */
export function forkServer (script, args, execArgv) {
  const child = fork(script, args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], execArgv })
  let out = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk) => { out += chunk })
  const port = new Promise((resolve, reject) => {
    child.stdout?.on('data', () => {
      const match = /^ready (\d+)$/m.exec(out)
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before ready`)))
  })
  const result = () => {
    const line = out.split('\n').find((l) => l.startsWith('{'))
    return line === undefined ? undefined : JSON.parse(line)
  }
  return { child, port, result }
}
