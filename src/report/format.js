// Number formatting shared by the renderers: the units (units.js) and table cells.

import { cutMiddle } from '../cut-text.js'

export { formatBytes, formatCount, formatDuration } from '../units.js'

/**
 * Pads or cuts `text` to `width` columns. Cut text loses its middle (cutMiddle): two long class
 * names that differ at their end stay apart in a table.
 * @param {string} text
 * @param {number} width
 * @param {'left' | 'right'} [align]
 */
export function fit (text, width, align = 'left') {
  if (text.length > width) return cutMiddle(text, Math.max(1, width))
  return align === 'left' ? text.padEnd(width) : text.padStart(width)
}
