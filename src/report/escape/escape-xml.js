// XML 1.0 for JUnit reports. Markup characters become entities, so that a name cannot end an
// attribute or an element, open a CDATA section or a comment; characters outside XML 1.0's Char
// production (2.2: most C0 controls, lone surrogates, U+FFFE and U+FFFF) are dropped, since no
// escape can write them and a parser stops at them.

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
/** @type {Record<string, string>} */
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

/**
 * `text` for an XML attribute value or element content.
 * @param {string} text
 * @returns {string}
 */
export function escapeXml (text) {
  return text.replace(FORBIDDEN, '').replace(/[&<>"']/g, (c) => ENTITIES[c])
}
