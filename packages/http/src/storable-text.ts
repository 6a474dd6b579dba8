/**
 * The storable-text rule (`isStorableText`: no U+0000, no lone surrogate) applied to request bodies:
 * to every string a body carries, object keys included, where bodies are read (the boundary for
 * JSON bodies, the template send for its multipart fields). Such a body is a 422 on the field
 * holding the string.
 */
import { isStorableText, storableTextMessage } from "@wasl/core/Wire"
import type { FieldErrors } from "./validation-errors.ts"

/** A value met on the walk, with the way back to the root (paths are built only when reported). */
interface Visit {
  readonly value: unknown
  readonly key: string
  readonly parent: Visit | undefined
}

const pathOf = (visit: Visit, rootKey: string): string => {
  const keys: Array<string> = []
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent) keys.push(at.key)
  return keys.length === 0 ? rootKey : keys.reverse().join(".")
}

/**
 * The dot path (`name.en`, `enum.1.en`) of the first string in a decoded body that cannot be
 * stored, `rootKey` for the body itself; a key that cannot be stored names the object holding it.
 * Undefined when every string can be stored. Walks with its own stack: a body may nest deeper
 * than the call stack.
 */
export const unstorableField = (value: unknown, rootKey = "body"): string | undefined => {
  const pending: Array<Visit> = [{ value, key: rootKey, parent: undefined }]
  while (pending.length > 0) {
    const visit = pending.pop()!
    const node = visit.value
    if (typeof node === "string") {
      if (!isStorableText(node)) return pathOf(visit, rootKey)
    } else if (typeof node === "object" && node !== null) {
      const entries = Object.entries(node)
      if (entries.some(([key]) => !isStorableText(key))) return pathOf(visit, rootKey)
      // Pushed last to first, so the first field is looked at first.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!
        pending.push({ value: child, key, parent: visit })
      }
    }
  }
  return undefined
}

/** The 422 errors of a decoded body holding a string that cannot be stored, or undefined. */
export const unstorableTextErrors = (value: unknown, rootKey = "body"): FieldErrors | undefined => {
  const field = unstorableField(value, rootKey)
  return field === undefined ? undefined : { [field]: [storableTextMessage(field)] }
}

/**
 * Only these JSON texts can decode to an unstorable string: an escaped NUL or surrogate (UTF-8
 * bytes decode to well-formed text), or a raw NUL. Lets the boundary skip decoding the others.
 */
const SUSPECT_JSON = /\\u(?:0000|d[89a-f][0-9a-f]{2})|\u0000/i

/**
 * The 422 errors of a JSON body text holding a string that cannot be stored, or undefined (for a
 * storable one, or text that is not JSON, which the route reports as malformed).
 */
export const unstorableJsonErrors = (text: string): FieldErrors | undefined => {
  if (!SUSPECT_JSON.test(text)) return undefined
  let decoded: unknown
  try {
    decoded = JSON.parse(text)
  } catch {
    return undefined
  }
  return unstorableTextErrors(decoded)
}
