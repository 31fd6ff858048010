/**
 * `{key: value}` when the value is there, `{}` when it is undefined: for the optional fields, which
 * the JSON leaves out rather than writing null.
 * @template {string} K
 * @template V
 * @param {K} key
 * @param {V | undefined} value
 * @returns {{[P in K]?: V}}
 */
export function optional (key, value) {
  return value === undefined ? {} : /** @type {{[P in K]?: V}} */ ({ [key]: value })
}
