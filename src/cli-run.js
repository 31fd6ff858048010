// What a command of the CLI calls once it analyses snapshots, besides the public API (src/index.js):
// reached as `#cli/run` through package.json `imports` by the modules under cli/run/, which a command
// loads when yargs hands it its arguments (cli-support.js has what the command line needs before
// that, cli-agent.js what talks to the agent).
export { readSnapshotCounts } from './parse/read-header.js'
export { estimateMemory, lengauerTarjanBytes } from './analysis/memory-need.js'
export { gatesFor, summarizeViolations, summarizePass } from './report/gates.js'
export { markdownCode, markdownText } from './report/escape/escape-markdown.js'
