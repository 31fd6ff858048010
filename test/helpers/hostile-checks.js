// Checks that names from the heap (fixtures/programs/report/hostile-names.js) did no harm in what
// leakdiff wrote: shared by the in-process tests and the CLI's run (test/report/hostile-names*.test.js).

// Any control character but the newline: SGR colour codes aside, one from the heap.
// eslint-disable-next-line no-control-regex
export const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/

/**
 * Checks Markdown for markup that came from a name: outside code spans, every `<`, `*`, `_`, `[`,
 * `` ` ``, `|` (outside table structure) and `@` must be escaped.
 * @param {import('ava').ExecutionContext} t
 * @param {string} markdown
 */
export function checkMarkdown (t, markdown) {
  t.false(CONTROL.test(markdown.replaceAll('\n', '')), 'no control characters')
  let fence = ''
  for (const line of markdown.split('\n')) {
    const fenceMark = /^(`{3,})/.exec(line)?.[1]
    if (fenceMark && (fence === '' || fenceMark.length >= fence.length)) {
      fence = fence === '' ? fenceMark : ''
      continue
    }
    if (fence !== '') continue
    // Code spans: a run of n backticks up to the next run of exactly n.
    const prose = line.replace(/(`+)[\s\S]*?[^`]\1(?!`)/g, 'CODE').replace(/\\[\\`*_[\]|~@#!<>]/g, '').replace(/&(lt|gt|amp);/g, '')
    const table = line.startsWith('|')
    const stripped = table ? prose.replace(/^\|| \| |\|$/g, ' ') : prose
    t.notRegex(stripped, /[<>`[\]]|\*\*b|@(?!\d)|(?<!\s)\|(?!\s)/, `markup from a name in: ${line}`)
    if (table) t.is(prose.split(/(?<!\\)\|/).length, line.startsWith('| ---') || line.startsWith('| #') || line.startsWith('| class') ? prose.split('|').length : tableColumns(markdown, line), `a name adds no cell: ${line}`)
  }
  t.true(markdown.includes('&lt;img src=x onerror=alert(1)&gt;') || markdown.includes('`<img src=x onerror=alert(1)>'))
}

/**
 * The number of cells (plus the outer pipes) of the table a row belongs to, from its header row.
 * @param {string} markdown
 * @param {string} row
 */
function tableColumns (markdown, row) {
  const lines = markdown.split('\n')
  let at = lines.indexOf(row)
  while (at > 0 && lines[at - 1].startsWith('|')) at--
  return lines[at].split('|').length
}

/**
 * Checks what the CLI wrote in a GitHub Actions job: the report in a block the runner reads no
 * commands in, then annotations only; the gate's line on stderr; no control character from the heap.
 * @param {import('ava').ExecutionContext} t
 * @param {string} stdout
 * @param {string} stderr
 */
export function checkGithubOutput (t, stdout, stderr) {
  const [, token] = /^::stop-commands::(\S+)\n/.exec(stdout) ?? []
  t.truthy(token)
  const end = stdout.indexOf(`\n::${token}::\n`)
  t.true(end > 0)
  const outside = stdout.slice(end + token.length + 6).split('\n').filter((line) => line !== '')
  t.true(outside.every((line) => /^::(error|warning) /.test(line)), 'only annotations are outside the block')
  t.false(CONTROL.test(stdout.replaceAll('\n', '')))
  const errorLines = stderr.split('\n').filter((line) => line !== '')
  t.true(errorLines.some((line) => line.startsWith('leakdiff: leak found')))
  t.false(CONTROL.test(stderr.replaceAll('\n', '')))
}
