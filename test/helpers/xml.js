// A strict reader for the small XML documents leakdiff writes (JUnit reports): it rejects what is
// not well-formed (unbalanced or crossed tags, unquoted attributes, a raw `<` or `&` in text) and
// returns the elements in document order, with their attributes and text decoded.

/**
 * @typedef {object} XmlElement
 * @property {string} name
 * @property {Record<string, string>} attributes
 * @property {string} text     the element's own text, decoded
 * @property {string[]} parents  names of the enclosing elements, outermost first
 */

const ENTITY = /&(amp|lt|gt|quot|apos);/g
const DECODED = /** @type {Record<string, string>} */ ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })

/**
 * @param {string} xml
 * @returns {XmlElement[]}
 */
export function readXml (xml) {
  const token = /<\?xml[^?]*\?>|<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy
  /** @type {XmlElement[]} */
  const elements = []
  /** @type {XmlElement[]} */
  const open = []
  let roots = 0
  let position = 0
  for (let match = token.exec(xml); match !== null; match = token.exec(xml)) {
    position = token.lastIndex
    const [whole, closing, name, attributeText, selfClosing, text] = match
    if (whole.startsWith('<?xml')) continue
    if (text !== undefined) {
      if (/&(?!(amp|lt|gt|quot|apos);)/.test(text)) throw new Error(`raw & in text: ${JSON.stringify(text.slice(0, 40))}`)
      if (open.length === 0) {
        if (text.trim() !== '') throw new Error(`text outside the root element: ${JSON.stringify(text.slice(0, 40))}`)
        continue
      }
      open[open.length - 1].text += decode(text)
      continue
    }
    if (closing) {
      const top = open.pop()
      if (top?.name !== name) throw new Error(`</${name}> closes <${top?.name}>`)
      continue
    }
    /** @type {Record<string, string>} */
    const attributes = {}
    for (const [, key, value] of attributeText.matchAll(/([\w:.-]+)="([^"]*)"/g)) {
      if (key in attributes) throw new Error(`attribute ${key} twice on <${name}>`)
      if (/&(?!(amp|lt|gt|quot|apos);)/.test(value)) throw new Error(`raw & in attribute ${key}`)
      attributes[key] = decode(value)
    }
    if (open.length === 0 && ++roots > 1) throw new Error('more than one root element')
    const element = { name, attributes, text: '', parents: open.map((e) => e.name) }
    elements.push(element)
    if (!selfClosing) open.push(element)
  }
  if (position !== xml.length) throw new Error(`not XML at offset ${position}: ${JSON.stringify(xml.slice(position, position + 40))}`)
  if (open.length > 0) throw new Error(`<${open.at(-1)?.name}> is never closed`)
  return elements
}

/** @param {string} text */
function decode (text) {
  return text.replace(ENTITY, (_, name) => DECODED[name])
}
