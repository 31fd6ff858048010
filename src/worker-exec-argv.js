// Node 20 starts a Worker with the process's execArgv, --input-type included, and a Worker that is
// an ES module then fails to start ("--input-type can only be used with string input via --eval,
// --print, or STDIN"): a script run with `node --input-type=module -e` or piped in could start none
// of leakdiff's. Such a process's Workers get no flags of its own: a list without --input-type
// would not do, since Node refuses V8 and process-wide options (--max-old-space-size) in a list
// given, where it leaves them be in the list it hands down; V8's flags hold in every thread anyway.

/**
 * The execArgv option for a Worker of leakdiff's: the process's (undefined) unless it has
 * --input-type, then none.
 * @returns {string[] | undefined}
 */
export function workerExecArgv () {
  return process.execArgv.some((arg) => arg === '--input-type' || arg.startsWith('--input-type=')) ? [] : undefined
}
