// The names of the CLI's commands beside its default one (`leakdiff a b c`), from their modules.
import * as capture from './capture.js'
import * as inspect from './inspect.js'
import * as soak from './soak.js'

/** `inspect`, `capture`, `soak`: what a first word that names no snapshot may have meant. */
export const COMMAND_NAMES = [inspect, capture, soak].map((module) => module.command.split(' ')[0])
