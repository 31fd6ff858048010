import test from 'ava'
import { findCallLines, findFunctionEnds } from '../../src/diff/alloc-stacks.js'

// The calling line of a frame and where its function ends come from the script's syntax tree: a
// name in a comment or a string is no call, and a brace in a regular expression closes nothing.

const URL = 'file:///srv/app/sessions.js'
const SOURCE = [
  "import { makeSession } from './session.js'",
  'const sessions = []',
  'export function openSession (body, user) {',
  '  // makeSession() wants the body without its closing brace',
  "  const label = 'makeSession(' + user + ')'",
  '  const trimmed = body.replace(/\\s*\\}\\s*$/, \'\')',
  '  const session = makeSession(trimmed, label)',
  '  sessions.push(session)',
  '  return session',
  '}',
  'export const count = () => sessions.length'
].join('\n')

/**
 * A stack of two frames: makeSession, allocating, called by openSession.
 * @returns {import('../../src/diff/alloc-stacks.js').GrowingStack}
 */
function stack () {
  const line = 2
  const column = SOURCE.split('\n')[line].indexOf('(body')
  /** @type {(name: string, url: string, lineNumber: number, columnNumber: number) => import('../../src/diff/alloc-stacks.js').StackFrame} */
  const frame = (name, url, lineNumber, columnNumber) => ({ function: name, url, lineNumber, columnNumber, kind: 'user', endLine: null, callLine: null })
  return {
    frames: [frame('makeSession', 'file:///srv/app/session.js', 0, 30), frame('openSession', URL, line, column)],
    bytes: 1000,
    samples: 10,
    steps: [500, 500]
  }
}

const sourceOf = (/** @type {string} */ url) => url === URL ? SOURCE : null

test('the calling line is the call, not a comment or a string that names the function', (t) => {
  const growing = stack()
  findCallLines(growing, sourceOf, [])
  const caller = growing.frames[1]
  t.is(caller.callLine, 6)
  t.is(caller.callColumn, SOURCE.split('\n')[6].indexOf('makeSession'))
})

test('a function ends at its own closing brace, past a `}` in a regular expression', (t) => {
  const growing = stack()
  findFunctionEnds([growing], sourceOf)
  t.is(growing.frames[1].endLine, 9)
})
