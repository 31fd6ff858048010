// `node --import leakdiff/register app.js`: starts the capture agent from LEAKDIFF_* variables.
// Loading this module is the side effect; the agent never throws into the host.
import { registerFromEnv } from './agent/register-from-env.js'

registerFromEnv()
