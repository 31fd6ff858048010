// Node 20 starts a Worker with the process's execArgv, --input-type included, and a Worker that is
// an ES module then fails to start ("--input-type can only be used with string input via --eval,
// --print, or STDIN"): a script run with `node --input-type=module -e` or piped in could start none
// of leakdiff's. The flag only says how to read the process's own string input.

/**
 * The process's execArgv for a Worker of leakdiff's: without --input-type.
 * @returns {string[]}
 */
export function workerExecArgv () {
  const args = []
  for (let i = 0; i < process.execArgv.length; i++) {
    const arg = process.execArgv[i]
    if (arg === '--input-type') i++
    else if (!arg.startsWith('--input-type=')) args.push(arg)
  }
  return args
}
