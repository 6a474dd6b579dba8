/**
 * How deep a JSON body may nest: what it holds (each field of an object, each element of a list)
 * no deeper than a list's parameter (`MAX_QUERY_NESTING`, 64 levels), so an export's
 * `complex_filters` has the list's limit; no body of the API needs more. JSON itself sets no limit,
 * and the decoders and walks behind the routes may recurse (Schema, `JSON.stringify`, canonical
 * forms): the body's text is measured before any of them reads it, so none meets a body deeper
 * than the call stack. A body too deep is a 422 on the field nesting too deep (`body` for a list).
 */
import { MAX_QUERY_NESTING, nestsDeeperThan } from "@wasl/core/Records"
import { LaravelMessageMore } from "@wasl/core/Wire"
import type { FieldErrors } from "./validation-errors.ts"

/**
 * The deepest nesting of arrays and objects in a JSON text, brackets inside strings not counted.
 * One pass, no parsing; for text that is not JSON, some number.
 */
const textDepth = (text: string): number => {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++ // a backslash: the next character is escaped
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth)
    else if (c === 0x5d || c === 0x7d) depth--
  }
  return deepest
}

/**
 * The 422 errors of a JSON body text holding a part nested more than `MAX_QUERY_NESTING` levels
 * deep, or undefined (for a body within the limit, or text that is not JSON, which the route
 * reports as malformed). Only a text deep enough is decoded (`JSON.parse` does not recurse).
 */
export const tooDeepJsonErrors = (text: string): FieldErrors | undefined => {
  if (textDepth(text) <= MAX_QUERY_NESTING + 1) return undefined
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof body !== "object" || body === null) return undefined
  const deep = Object.entries(body).find(([, value]) => nestsDeeperThan(value, MAX_QUERY_NESTING))
  if (deep === undefined) return undefined
  const field = Array.isArray(body) ? "body" : deep[0]
  return { [field]: [LaravelMessageMore.maxDepth(field, MAX_QUERY_NESTING)] }
}
