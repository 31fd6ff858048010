// A finding whose growth a package made is located at the program's line that called the package,
// with the package's frame beside it (src/pipeline/user-line.js): on a real program that leaks
// inside ajv, winston and undici (fixtures/programs/alloc/package-leaks.js, each calling line
// marked `// leak: <name>`), its fixed twin, and the rule's cross-checks as function calls.
import test from 'ava'
import { renderDiffReport, renderGithubAnnotations, DEFAULT_GATES, evaluateGates } from 'leakdiff'
import { markedLocation, perRoundOf, reportOf, stepsOf } from '../helpers/fixture-reports.js'
import { markedPosition } from '../helpers/fixture-source.js'
import { findUserLine } from '../../src/pipeline/user-line.js'
import { callSnippet } from '../../src/signatures/call-words.js'

const PROGRAM = 'alloc/package-leaks'
const FILE = `fixtures/programs/${PROGRAM}.js`

/**
 * @param {import('leakdiff').DiffReport} report
 * @param {string} name
 */
function findingInside (report, name) {
  return report.findings.find((finding) => finding.location?.inside?.package === name)
}

for (const [name, marker, token, fn, signature] of [
  ['ajv', '// leak: schema per call', 'compile(', 'checkOrder', 'unbounded-collection'],
  ['winston', '// leak: logger per job', 'add(', 'runJob', 'unbounded-collection'],
  ['undici', '// leak: client per call', 'Client(', 'fetchStock', 'retained-sockets']
]) {
  test(`growth made inside ${name}: the finding is at the program's call in ${fn}, ${name}'s frame beside it`, async (t) => {
    const report = await reportOf(PROGRAM)
    const finding = findingInside(report, name)
    if (finding === undefined) return t.fail(JSON.stringify(report.findings.map((f) => [f.signature, f.location])))
    t.is(finding.signature, signature)
    const { inside, ...location } = /** @type {import('leakdiff').Location} */ (finding.location)
    t.deepEqual(location, markedLocation(PROGRAM, marker, token, fn))
    t.true(inside?.file.startsWith(`node_modules/${name}/`), inside?.file)
    t.not(inside?.function, '')
    t.is(finding.evidence.locationRole, `calls into ${name}`)
    // The card's code is the program's line, not the package's.
    t.true(finding.source?.lines[location.line - finding.source.start].includes(marker), JSON.stringify(finding.source))
    // The evidence behind the move: a tied stack that passes through that line, with the
    // package's code below it.
    const stacks = finding.allocatedAt?.stacks ?? []
    const through = stacks.find((stack) => stack.frames.some((frame) => frame.file === FILE && frame.line === location.line && frame.kind === 'user'))
    if (through === undefined) return t.fail(JSON.stringify(stacks.map((stack) => stack.frames.map((frame) => `${frame.file}:${frame.line}`))))
    const at = through.frames.findIndex((frame) => frame.file === FILE)
    t.true(through.frames.slice(0, at).some((frame) => frame.file.startsWith(`node_modules/${name}/`)))
    const perRound = await perRoundOf(PROGRAM)
    t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  })
}

test('the retainer path agrees: ajv\'s cache is reached through the program\'s module scope; winston\'s container and a connected client never pass through the program', async (t) => {
  const report = await reportOf(PROGRAM)
  const inProgram = (/** @type {import('leakdiff').DiffReport['findings'][number] | undefined} */ finding) =>
    (finding?.path ?? []).some((step) => typeof step.module === 'string' && step.module.endsWith(FILE))
  t.true(inProgram(findingInside(report, 'ajv')))
  t.is(findingInside(report, 'ajv')?.path.at(-2)?.edge, 'ajv')
  t.false(inProgram(findingInside(report, 'winston')))
  t.false(inProgram(findingInside(report, 'undici')))
})

test('a finding the stacks do not reach stays where the signature put it: no tied stack of undici\'s socket timers passes through the program', async (t) => {
  const report = await reportOf(PROGRAM)
  // The timers are listed on the sockets' card (test/pipeline/shared-causes.test.js); there too
  // each finding keeps its own location.
  const left = report.findings.flatMap((finding) => [finding, ...(finding.also ?? [])]).filter((finding) => finding.location?.inside === undefined)
  // undici arms a timer per idle socket in its connection callback: no frame of the program.
  t.deepEqual(left.map((finding) => [finding.signature, finding.location?.file]), [['forgotten-timer', 'node_modules/undici/lib/dispatcher/client-h1.js']])
  for (const finding of left) {
    t.false((finding.allocatedAt?.stacks ?? []).some((stack) => stack.frames.some((frame) => frame.kind === 'user')))
  }
})

test('every format shows the program\'s line first and the package beside it', async (t) => {
  const report = await reportOf(PROGRAM)
  const { line, column } = markedPosition(PROGRAM, '// leak: schema per call', 'compile(')
  const text = renderDiffReport(report, { format: 'text', color: false, width: 120 })
  t.regex(text, new RegExp(`${FILE}:${line}:${column} +\\(checkOrder, calls into ajv\\)\\n +inside ajv: compile at node_modules/ajv/lib/core\\.ts:\\d+:\\d+\\n`))
  const markdown = renderDiffReport(report, { format: 'markdown' })
  t.regex(markdown, new RegExp(`at \`${FILE}:${line}:${column}\` \\(checkOrder, calls into ajv\\)\\n\\ninside \`ajv\`: compile at \`node_modules/ajv/lib/core\\.ts:\\d+:\\d+\``))
  const annotations = renderGithubAnnotations(report, evaluateGates(report, DEFAULT_GATES))
  t.regex(annotations, new RegExp(`::error file=${FILE},line=${line},col=${column},title=leakdiff%3A unbounded-collection::_cache .* Made inside ajv: compile at node_modules/ajv/lib/core\\.ts:\\d+:\\d+\\. Fix:`))
  const json = JSON.parse(renderDiffReport(report, { format: 'json' }))
  t.like(json.findings.find((/** @type {any} */ f) => f.location?.inside?.package === 'ajv').location, { file: FILE, line, column, inside: { package: 'ajv' } })
})

test('each package\'s own release call, read from the holder\'s prototype chain in the heap, is written at the program\'s call with its own receiver and key', async (t) => {
  const report = await reportOf(PROGRAM)
  const fixOf = (/** @type {string} */ name) => findingInside(report, name)?.fix ?? { summary: '', snippet: '' }
  // winston's Container keeps a logger per name until its close(name).
  const winston = fixOf('winston')
  t.regex(winston.summary, /^Container from winston keeps every entry it is given until its own close\(key\) takes it out\. New keys look like "job-\d+"/)
  t.is(winston.snippet, 'const log = winston.loggers.add(name, /* ... */)\ntry {\n  // ... the work, as before\n} finally {\n  winston.loggers.close(name)\n}')
  // Ajv keys by the schema object: compile once; one made per call comes out with removeSchema.
  const ajv = fixOf('ajv')
  t.regex(ajv.summary, /compares keys by identity: .* \(ajv\.removeSchema\(\)\)\.$/)
  t.is(ajv.snippet, [
    '// once, at start-up, not per call: ajv keeps an entry per key object',
    'const validate = ajv.compile({ ...ORDER_SCHEMA })',
    '// or, per call: const key = { ...ORDER_SCHEMA }, pass key, and take it out when done: ajv.removeSchema(key)'
  ].join('\n'))
  // undici's Client holds its connection until close().
  const undici = fixOf('undici')
  t.regex(undici.summary, /until close\(\) is called/)
  t.is(undici.snippet, 'const client = new Client(origin) // once, at start-up, shared by every call\n// or per call: try { /* ... */ } finally { await client.close() }')
})

test('the fixed twin (the schema compiled once, each logger closed, each client closed): no finding, no owner that kept growth', async (t) => {
  const report = await reportOf(PROGRAM, { args: ['fixed'] })
  t.deepEqual(report.findings, [])
  t.deepEqual(report.growth.filter((row) => row.leak), [])
  t.not(report.allocations, null)
})

// The rule as function calls, on stacks as src/diff/alloc-stacks.js makes them.

const APP = 'file:///srv/app.js'
const LIB = 'file:///srv/lib/validate.js'
const AJV = 'file:///srv/node_modules/ajv/dist/core.js'

/**
 * @param {string} fn
 * @param {string} url
 * @param {number} line  0-based start of the function
 * @param {number | null} [callLine]
 * @returns {import('../../src/diff/alloc-stacks.js').StackFrame}
 */
function frame (fn, url, line, callLine = null) {
  const kind = url === '' ? 'native' : url.startsWith('node:') ? 'node' : url.includes('/node_modules/') ? 'library' : 'user'
  return { function: fn, url, lineNumber: line, columnNumber: 0, kind, endLine: null, callLine, callColumn: callLine === null ? null : 4 }
}

/**
 * @param {import('../../src/diff/alloc-stacks.js').StackFrame[]} frames
 * @returns {import('../../src/diff/alloc-stacks.js').GrowingStack}
 */
function stack (frames) {
  return { frames, bytes: 1e6, samples: 20, steps: [5e5, 5e5], callers: 1 }
}

/**
 * @param {{location?: any, library?: string | null, modules?: string[]}} parts
 * @returns {import('../../src/signatures/finding.js').Finding}
 */
function finding ({ location = { file: '/srv/node_modules/ajv/dist/core.js', line: 12, column: 5, function: 'compile' }, library = null, modules = [] }) {
  return {
    signature: 'unbounded-collection',
    title: '',
    confidence: 0.9,
    reasons: [],
    owner: { id: 1, name: 'Map', type: 'object' },
    path: modules.map((module, i) => ({ edge: `v${i}`, edgeType: 'context', node: 'system / Context', nodeType: 'hidden', id: 0, module })),
    evidence: { unit: 'entries', counts: [1, 2, 3], retained: [1, 2, 3], perStep: 1, ownerCount: 1, notes: [], library },
    location,
    fix: { summary: '', snippet: '' }
  }
}

const MADE_IN_AJV = stack([frame('compileSchema', AJV, 100), frame('', '', -1), frame('compile', AJV, 40, 44), frame('check', LIB, 2, 5), frame('handle', APP, 10, 14)])

test('findUserLine: the innermost frame of the program, the package frame it called, past native frames', (t) => {
  const line = findUserLine(finding({}), [MADE_IN_AJV], { cwd: '/srv' })
  t.is(line?.caller.function, 'check')
  t.is(line?.entry.function, 'compile')
  t.is(line?.package, 'ajv')
})

test('findUserLine: the path\'s last hop in the program must be in a file on the stack', (t) => {
  t.is(findUserLine(finding({ modules: [APP] }), [MADE_IN_AJV], { cwd: '/srv' })?.caller.function, 'check')
  t.is(findUserLine(finding({ modules: [APP, 'file:///srv/node_modules/ajv/dist/ajv.js'] }), [MADE_IN_AJV], { cwd: '/srv' })?.caller.function, 'check')
  t.is(findUserLine(finding({ modules: ['file:///srv/other.js'] }), [MADE_IN_AJV], { cwd: '/srv' }), null)
})

test('findUserLine: a stack that made its objects in another package, or in the program itself, moves nothing', (t) => {
  const otherPackage = stack([frame('Console', 'file:///srv/node_modules/winston/lib/console.js', 20), frame('handle', APP, 10, 14)])
  t.is(findUserLine(finding({}), [otherPackage], { cwd: '/srv' }), null)
  // The heavier stack of another package is passed over for the one that made the package's objects.
  t.is(findUserLine(finding({}), [otherPackage, MADE_IN_AJV], { cwd: '/srv' })?.caller.function, 'check')
  const ownConstructor = stack([frame('Session', APP, 3), frame('handle', APP, 10, 14)])
  t.is(findUserLine(finding({ location: null }), [ownConstructor], { cwd: '/srv' }), null)
})

test('findUserLine: a location in the program moves only when it is the program\'s handle on a package\'s object, and only to a call line', (t) => {
  const handler = { file: 'app.js', line: 30, column: 1, function: 'onRequest' }
  t.is(findUserLine(finding({ location: handler }), [MADE_IN_AJV], { cwd: '/srv' }), null)
  t.is(findUserLine(finding({ location: handler, library: 'ajv' }), [MADE_IN_AJV], { cwd: '/srv' })?.caller.function, 'check')
  const noCallLine = stack([frame('compile', AJV, 40), frame('check', LIB, 2)])
  t.is(findUserLine(finding({ location: handler, library: 'ajv' }), [noCallLine], { cwd: '/srv' }), null)
  // From a package's own file, the function's start in the program is still the program's.
  t.is(findUserLine(finding({}), [noCallLine], { cwd: '/srv' })?.caller.function, 'check')
})

test('findUserLine: Node\'s own code counts as not the program\'s, and a scoped package is named whole', (t) => {
  const timers = stack([frame('setTimeout', 'node:timers', 130), frame('arm', APP, 5, 7)])
  t.is(findUserLine(finding({ location: { file: 'node:timers', line: 1, column: 1, function: '' } }), [timers], { cwd: '/srv' })?.package, 'node')
  const scoped = stack([frame('add', 'file:///srv/node_modules/@acme/registry/index.js', 3, 4), frame('arm', APP, 5, 7)])
  t.is(findUserLine(finding({ location: { file: 'node_modules/@acme/registry/index.js', line: 4, column: 1, function: 'add' } }), [scoped], { cwd: '/srv' })?.package, '@acme/registry')
})

// A fix in a package's terms, written at the program's call (signatures/call-words.js).

/**
 * @param {Partial<import('../../src/syntax/calls-in-code.js').CallParts>} parts
 * @returns {import('../../src/syntax/calls-in-code.js').CallParts}
 */
function call (parts) {
  return { start: 0, end: 0, name: 'add', receiver: 'registry', constructs: false, args: ['id'], assignedTo: null, ...parts }
}

test('callSnippet: the package\'s release on the receiver with the call\'s key; the call alone when the heap shows no release', (t) => {
  t.is(callSnippet({ kind: 'distinct keys', release: 'unregister' }, call({ args: ['id', '{ ttl: 5 }'] })),
    'registry.add(id, /* ... */)\ntry {\n  // ... the work, as before\n} finally {\n  registry.unregister(id)\n}')
  t.is(callSnippet({ kind: 'distinct keys', release: null }, call({ assignedTo: 'entry' })), 'const entry = registry.add(id)')
  t.is(callSnippet({ kind: 'key object', release: 'removeSchema' }, call({ name: 'compile', receiver: 'validator', args: ['schema'], assignedTo: 'check' })),
    '// once, at start-up, not per call: validator keeps an entry per key object\nconst check = validator.compile(schema)\n// or, per call, take it out when done: validator.removeSchema(schema)')
  t.is(callSnippet({ kind: 'made per call', release: 'destroy' }, call({ name: 'Pool', receiver: null, constructs: true, args: ['url'], assignedTo: 'pool' })),
    'const pool = new Pool(url) // once, at start-up, shared by every call\n// or per call: try { /* ... */ } finally { await pool.destroy() }')
})
