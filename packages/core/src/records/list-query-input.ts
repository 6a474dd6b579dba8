/**
 * The parameters of a list request as the use-cases take them: already read from the wire by the
 * edge (the HTTP API parses its query string; an export brings them in its JSON body), not yet
 * validated. Validation against the kind's properties is the core's (list-query.ts,
 * pagination.ts), so every list answers the same 422 messages however its parameters arrived.
 */

/**
 * One parameter's value: a text (trimmed, as Laravel's middleware leaves it), null for an empty
 * one, or a nesting of them (`complex_filters[0][property]=amount` arrives as
 * `{ complex_filters: [{ property: "amount" }] }`).
 */
export type QueryValue = string | null | ReadonlyArray<QueryValue> | { readonly [key: string]: QueryValue }

/** The deepest nesting of a parameter the edge keeps (PHP's max_input_nesting_level). */
export const MAX_QUERY_NESTING = 64

/**
 * Whether `value` nests arrays and objects more than `levels` deep: a text is no level, `["x"]`
 * one, `complex_filters[0][property]=x` two under `complex_filters`. Walks with its own stack and
 * stops at the first part too deep, so a value nested deeper than the call stack is measured too,
 * before anything that recurses (a parser, `JSON.stringify`) meets it.
 */
export const nestsDeeperThan = (value: unknown, levels: number): boolean => {
  const pending: Array<readonly [node: object, depth: number]> = []
  if (typeof value === "object" && value !== null) pending.push([value, 1])
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!
    if (depth > levels) return true
    for (const child of Object.values(node)) {
      if (typeof child === "object" && child !== null) pending.push([child, depth + 1])
    }
  }
  return false
}

/** The parameters of a list request, by name; the lists read `page`, `per_page`, `search`, `order`, `direction` and `complex_filters`. */
export interface ListQueryInput {
  /** Each parameter's value; a name absent here was not sent. */
  readonly [name: string]: QueryValue | undefined
}

/**
 * The name under which the edge reports the parameters it had to drop because they nested deeper
 * than `MAX_QUERY_NESTING` levels (its value: their names, as an array). A list refuses a dropped
 * `complex_filters` rather than answer unfiltered.
 */
export const NESTED_TOO_DEEP = "\0nested_too_deep"

/** Whether the edge dropped the parameter `name` for nesting too deep. */
export const droppedTooDeep = (input: ListQueryInput, name: string): boolean => {
  const dropped = input[NESTED_TOO_DEEP]
  return Array.isArray(dropped) && dropped.includes(name)
}
