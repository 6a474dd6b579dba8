/**
 * A template text's variables `{{1}}`…`{{n}}`: how many it holds, and the text as a recipient
 * reads it with values filled in (a variable without one stays as written).
 */
const VARIABLE = /\{\{(\d+)\}\}/g

/** The highest variable number in `text` (0 without any): the values a send fills. */
export const variableCount = (text: string): number =>
  Math.max(0, ...Array.from(text.matchAll(VARIABLE), (found) => Number(found[1])))

export const fillVariables = (text: string, values: ReadonlyArray<string>): string =>
  text.replace(VARIABLE, (written, number: string) => values[Number(number) - 1] || written)
