// What the CLI uses besides the public API (src/index.js), reached through package.json `imports`,
// which only this package can resolve, so none of it is public. `#cli/support` is what the command
// line needs before a command runs (its options, their checks, error lines): every command's start,
// `--help` and a usage error load only this. What a command calls once it runs is loaded then:
// `#cli/run` (cli-run.js) and `#cli/agent` (cli-agent.js).
export { DEFAULT_DIFF_OPTIONS } from './diff/default-options.js'
export { SIGNATURE_IDS } from './signatures/ids.js'
export { formatsFor, describeFormats } from './report/formats.js'
export { parseFailOn } from './report/fail-on.js'
export { escapeText } from './report/escape/escape-text.js'
export { parseSize, parseDuration, formatBytes, SIZE_EXAMPLES } from './units.js'
