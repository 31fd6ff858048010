import { configFromEnv } from './config.js'
import { startAgent } from './start-agent.js'
import { describeError } from './capture-snapshot.js'
import { writeEventToStderr } from './events.js'

/**
 * Starts the agent from LEAKDIFF_* environment variables, for `node --import leakdiff/register` and
 * `node -r leakdiff/register`. Never throws: a bad value is reported once and its default used; an
 * agent that cannot start says why on stderr and the host runs on without it. Worker threads are
 * skipped (signals reach the main thread only, and a snapshot covers one isolate).
 * @param {Record<string, string | undefined>} [env]
 * @returns {import('./start-agent.js').Agent | undefined}
 */
export function registerFromEnv (env = process.env) {
  try {
    const { config, problems } = configFromEnv(env)
    for (const problem of problems) writeEventToStderr({ type: 'config', message: problem })
    return startAgent(config)
  } catch (error) {
    writeEventToStderr({ type: 'error', message: `agent not started: ${describeError(error)}`, error })
    return undefined
  }
}
