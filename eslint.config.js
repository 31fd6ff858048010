import neostandard from 'neostandard'

/** @param {string[]} patterns */
const forbid = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }]
})

// Imports point down the layers only: errors <- parse <- graph <- analysis <- query <- diff <- signatures <- sources
// <- pipeline (the run of a diff or an inspect). report/ holds the Report model and its renderers: the
// pipeline builds the model with it, and it runs no heap code (parse/, graph/, analysis/, query/, diff/).
// syntax/ (the one parse of the user's code) sits below every layer that asks it questions. What a
// lower layer needs from a higher one (names as written, scripts' text) comes in as an argument.
export default [
  // fixtures/snapshots/ holds builds as the compilers wrote them, committed with their snapshots.
  ...neostandard({ ignores: ['coverage/**', 'types/**', 'bench/out/**', 'fixtures/snapshots/**'] }),
  { files: ['src/syntax/**'], rules: forbid(['**/parse/**', '**/graph/**', '**/analysis/**', '**/query/**', '**/diff/**', '**/signatures/**', '**/sources/**', '**/report/**', '**/pipeline/**', '**/agent/**', '**/soak/**'], 'syntax/ parses the user\'s code for every layer above it: it imports none of them') },
  { files: ['src/parse/**'], rules: forbid(['**/graph/**', '**/analysis/**', '**/query/**', '**/diff/**', '**/signatures/**', '**/report/**', '**/pipeline/**', '**/agent/**', '**/soak/**'], 'parse/ sits below everything but errors.js') },
  { files: ['src/graph/**'], rules: forbid(['**/analysis/**', '**/query/**', '**/diff/**', '**/signatures/**', '**/report/**', '**/pipeline/**', '**/agent/**', '**/soak/**'], 'graph/ may import parse/ and errors.js only') },
  { files: ['src/analysis/**'], rules: forbid(['**/query/**', '**/diff/**', '**/signatures/**', '**/report/**', '**/pipeline/**', '**/agent/**', '**/soak/**'], 'analysis/ may not import layers above it') },
  { files: ['src/query/**'], rules: forbid(['**/syntax/**', '**/diff/**', '**/signatures/**', '**/sources/**', '**/report/**', '**/pipeline/**', '**/agent/**', '**/soak/**'], 'query/ (how code above the engine reads the heap) may import analysis/, graph/ and parse/ only') },
  { files: ['src/diff/**'], rules: forbid(['**/signatures/**', '**/report/**', '**/pipeline/**', '**/agent/**', '**/soak/**'], 'diff/ may not import layers above it') },
  { files: ['src/signatures/**'], rules: forbid(['**/sources/**', '**/report/**', '**/pipeline/**', '**/agent/**', '**/soak/**'], 'signatures/ may not import layers above it') },
  { files: ['src/sources/**'], rules: forbid(['**/report/**', '**/pipeline/**', '**/agent/**', '**/soak/**'], 'sources/ sits between signatures/ and pipeline/: it hands its answers down as arguments') },
  { files: ['src/report/**'], rules: forbid(['**/parse/**', '**/graph/**', '**/analysis/**', '**/query/**', '**/diff/**', '**/sources/**', '**/pipeline/**', '**/agent/**', '**/soak/**'], 'report/ renders the Report model only: the run that builds it is pipeline/') },
  { files: ['src/pipeline/**'], rules: forbid(['**/agent/**', '**/soak/**'], 'pipeline/ runs a diff or an inspect: every layer but agent/ and soak/ sits below it') },
  { files: ['src/agent/**'], rules: forbid(['**/syntax/**', '**/parse/**', '**/graph/**', '**/analysis/**', '**/query/**', '**/diff/**', '**/signatures/**', '**/report/**', '**/pipeline/**', '**/soak/**', 'yargs', 'chalk', 'lru-cache', 'acorn', 'acorn-loose', 'acorn-walk'], 'the agent runs in production: node builtins and errors.js only') },
  { files: ['cli/**'], rules: forbid(['../src/**', '**/src/**'], 'cli/ imports only the published entry points (leakdiff, leakdiff/agent)') }
]
