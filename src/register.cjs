'use strict'
// `node -r leakdiff/register app.js` (CommonJS apps and NODE_OPTIONS): starts the capture agent from
// LEAKDIFF_* variables. Node >= 20.19 loads the ESM agent with require() at once and silently, so the
// signal handler is in place before the app's first line; where require(esm) is turned off
// (--no-experimental-require-module) it falls back to import(), a moment later.

/** @param {unknown} error */
function report (error) {
  try {
    process.stderr.write(`leakdiff: agent not started: ${error instanceof Error ? error.message : String(error)}\n`)
  } catch {}
}

try {
  require('./agent/register-from-env.js').registerFromEnv()
} catch (error) {
  if (error && error.code === 'ERR_REQUIRE_ESM') {
    import('./agent/register-from-env.js').then((agent) => agent.registerFromEnv(), report)
  } else {
    report(error)
  }
}
