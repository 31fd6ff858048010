// GitHub Actions workflow commands (`::error file=…,title=…::message`), escaped as the runner
// unescapes them (actions/toolkit, packages/core/src/command.ts): in the message `%`, CR and LF;
// in a property also `:` and `,`, which separate properties. A name from the heap then cannot end
// the command's line and start another command, nor add or replace a property.

/**
 * `text` for the message part of a workflow command.
 * @param {string} text
 * @returns {string}
 */
export function commandData (text) {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A')
}

/**
 * `text` for a property value of a workflow command.
 * @param {string} text
 * @returns {string}
 */
export function commandProperty (text) {
  return commandData(text).replaceAll(':', '%3A').replaceAll(',', '%2C')
}
