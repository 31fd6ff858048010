import { setFlagsFromString } from 'node:v8'

/**
 * V8 settings for a process that runs one batch job, the CLI's: the analysis is a few long loops
 * that each run once, so V8 moves them into optimized code while they run (on-stack replacement).
 * Done concurrently, as V8 does by default, the loop goes on in slower code while a helper thread
 * compiles; it costs the process more CPU in all than compiling on the spot (20 MB snapshot:
 * 0.84 → 0.69 s, 201 MB: 3.2 → 3.1 s on Node 20; about as much on Node 22). V8 13 (Node 24) does
 * OSR differently: the same flag makes it about 6× slower there, so it is set only on V8 12 and
 * older, where it was measured (docs/benchmarks.md).
 *
 * Most of what runs, though, runs a few times only: the hundreds of functions above the engine,
 * each called per finding or per row. V8 optimizes a function after about 66 kB of its bytecode
 * has run, and on a small input the optimizing compiler's helper thread then costs more than the
 * optimized code saves. With 16 times that budget a diff of the demo's three snapshots (8–12 MB)
 * takes 10 % less CPU, one of three 1–1.5 MB snapshots 16 % less, and the 200 MB series about the
 * same (measured on Node 20 alone, as the flag above). Never applied to a host process: only the
 * CLI and the bench's leakdiff contender call this.
 */
export function tuneV8 () {
  const major = Number(process.versions.v8.split('.')[0])
  if (major > 12) return
  setFlagsFromString('--no-concurrent-osr')
  setFlagsFromString('--interrupt-budget=1081344')
}
