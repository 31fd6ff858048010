// `npm run bench:threads [-- --repeats 5 --messages 50000 --objects 100000]`: what the agent costs
// a process with worker threads (bench/agent-threads-app.js, fresh processes each time).
//   - idle: two workers echo `messages` messages each to the main thread, with and without the
//     agent preloaded in every thread (no signal: the relay only waits), runs alternating;
//   - pause: a main thread and two workers with `objects` small objects each; one series, every
//     thread's turn: each thread's write, and the main thread's event-loop delay while the
//     workers wrote in their own threads.
// Results go to bench/out/agent-threads.json and a section of docs/benchmarks.md.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { replaceSection } from './doc-sections.js'
import { DOC, OUT, ROOT, machineName, median, option } from './bench-kit.js'

const APP = fileURLToPath(new URL('agent-threads-app.js', import.meta.url))
const REPEATS = Number(option('repeats', '5'))
const MESSAGES = option('messages', '50000')
const OBJECTS = option('objects', '100000')

// The preload resolves `leakdiff/register` from the working directory, as users load it.
const install = mkdtempSync(join(tmpdir(), 'leakdiff-bench-threads-'))
mkdirSync(join(install, 'node_modules'))
symlinkSync(ROOT, join(install, 'node_modules', 'leakdiff'), 'dir')

/**
 * @param {string[]} args
 * @param {boolean} agent
 * @returns {any}
 */
function run (args, agent) {
  const dir = mkdtempSync(join(install, 'snaps-'))
  const out = execFileSync(process.execPath, [...(agent ? ['--import', 'leakdiff/register'] : []), APP, ...args], {
    cwd: install,
    env: { ...process.env, LEAKDIFF_DIR: dir, LEAKDIFF_ALLOC_SAMPLING: '0', OBJECTS },
    stdio: ['ignore', 'pipe', 'ignore']
  })
  rmSync(dir, { recursive: true, force: true })
  return JSON.parse(out.toString().trim().split('\n').at(-1) ?? '{}')
}

const load = loadavg()[0]
const runs = { without: /** @type {any[]} */ ([]), withAgent: /** @type {any[]} */ ([]) }
for (let i = 0; i < REPEATS; i++) {
  runs.without.push(run(['echo', MESSAGES], false))
  runs.withAgent.push(run(['echo', MESSAGES], true))
}
// CPU time of the whole process is the measure: wall time on a shared machine moves with the load.
const without = runs.without.map((r) => r.cpuMs)
const withAgent = runs.withAgent.map((r) => r.cpuMs)
const wall = { without: runs.without.map((r) => r.ms), withAgent: runs.withAgent.map((r) => r.ms) }
const startup = { without: runs.without.map((r) => r.startupMs), withAgent: runs.withAgent.map((r) => r.startupMs) }
const pauses = Array.from({ length: Math.max(1, Math.floor(REPEATS / 2)) }, () => run(['pause'], true))
rmSync(install, { recursive: true, force: true })

const result = {
  machine: machineName(),
  loadBefore: load,
  messages: Number(MESSAGES),
  objects: Number(OBJECTS),
  idle: { cpuWithoutMs: without, cpuWithAgentMs: withAgent, wallWithoutMs: wall.without, wallWithAgentMs: wall.withAgent, startupWithoutMs: startup.without, startupWithAgentMs: startup.withAgent },
  pause: pauses
}
mkdirSync(OUT, { recursive: true })
writeFileSync(join(OUT, 'agent-threads.json'), JSON.stringify(result, null, 2) + '\n')

const ms = (/** @type {number} */ value) => `${Math.round(value)} ms`
const body = [
  '## Agent: worker threads',
  '',
  `Machine: ${result.machine}; 1-minute load average ${load.toFixed(1)} when the run started (the machine is shared). \`npm run bench:threads\` (bench/agent-threads.js).`,
  '',
  `**A process that never signals.** Two workers echo ${Number(MESSAGES).toLocaleString('en-US')} messages each to the main thread; fresh processes, alternating, ${REPEATS} of each. With the agent preloaded, every thread runs one (the worker's says \`hello\` on the relay channel once; nothing else runs until a series).`,
  '',
  '| | CPU time of the echoes (all threads): median | runs | wall time: median | workers\' startup: median |',
  '| --- | ---: | --- | ---: | ---: |',
  `| no agent | ${ms(median(without))} | ${without.map(ms).join(', ')} | ${ms(median(wall.without))} | ${ms(median(startup.without))} |`,
  `| agent in every thread | ${ms(median(withAgent))} | ${withAgent.map(ms).join(', ')} | ${ms(median(wall.withAgent))} | ${ms(median(startup.withAgent))} |`,
  '',
  'The startup difference is each worker loading the agent\'s modules through the preload (once per thread); the echoes themselves run the same code with or without it.',
  '',
  `**The pause per thread.** A main thread and two workers with ${Number(OBJECTS).toLocaleString('en-US')} small objects each; one series of one snapshot. Each thread pauses for its own write only; the main thread's event loop is measured while the workers write (after its own write).`,
  '',
  '| run | main thread\'s write | workers\' writes | main thread\'s longest event-loop delay while the workers wrote |',
  '| ---: | ---: | --- | ---: |',
  ...pauses.map((p, i) => `| ${i + 1} | ${ms(p.mainWriteMs)} | ${p.workerWriteMs.map(ms).join(', ')} | ${ms(p.mainLoopMaxMs)} |`)
].join('\n')
writeFileSync(DOC, replaceSection(readFileSync(DOC, 'utf8'), 'agent-threads', body))
process.stdout.write(body + '\n')
