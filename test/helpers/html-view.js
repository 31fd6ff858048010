// The view an HTML report's page is built from: the JSON the page carries in its data element.

/**
 * @param {string} html  a page renderHtmlReport made
 * @returns {any}
 */
export function htmlViewOf (html) {
  const data = /<script type="application\/json" id="leakdiff-data">([^<]*)<\/script>/.exec(html)?.[1]
  if (data === undefined) throw new Error('Expected the page to carry its data element')
  return JSON.parse(data)
}
