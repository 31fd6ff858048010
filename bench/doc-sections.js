// Sections of docs/benchmarks.md that one bench script generates and the others carry over, each
// between `<!-- section:<name> -->` and `<!-- end of section:<name> -->`.

/**
 * @param {string} name
 * @returns {[string, string]} the start and end markers
 */
function markers (name) {
  return [`<!-- section:${name}: generated, do not edit -->`, `<!-- end of section:${name} -->`]
}

/**
 * Every generated section of `doc`, markers included, in order; '' when there is none.
 * @param {string | undefined} doc
 * @returns {string}
 */
export function extractSections (doc) {
  if (doc === undefined) return ''
  const found = doc.match(/<!-- section:([\w-]+): generated, do not edit -->[\s\S]*?<!-- end of section:\1 -->\n?/g)
  return found ? found.join('\n') : ''
}

/**
 * `doc` with section `name` set to `body`: replaced where it is, else appended at the end.
 * @param {string} doc
 * @param {string} name
 * @param {string} body
 * @returns {string}
 */
export function replaceSection (doc, name, body) {
  const [start, end] = markers(name)
  const block = `${start}\n${body.endsWith('\n') ? body : `${body}\n`}${end}\n`
  const from = doc.indexOf(start)
  const to = doc.indexOf(end)
  if (from !== -1 && to > from) return doc.slice(0, from) + block + doc.slice(to + end.length).replace(/^\n/, '')
  return `${doc.replace(/\n*$/, '\n')}\n${block}`
}
