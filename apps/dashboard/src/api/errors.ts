/** The API's error bodies as the forms show them: a message, and per-field messages of a 422. */

/** Field name (dot notation, e.g. `name.en`) → the API's messages for it. */
export type FieldErrors = Readonly<Record<string, ReadonlyArray<string>>>

/** What a failed call left to show. */
export interface Problem {
  readonly message: string
  readonly errors: FieldErrors
}

/** The problem of an openapi-fetch answer's `error`, or undefined when it succeeded. */
export const problemOf = (error: unknown): Problem | undefined => {
  if (error === undefined || error === null) return undefined
  if (typeof error !== "object") return { message: String(error), errors: {} }
  const body = error as { message?: unknown; errors?: unknown }
  return {
    message: typeof body.message === "string" ? body.message : "Request failed.",
    errors: typeof body.errors === "object" && body.errors !== null ? (body.errors as FieldErrors) : {}
  }
}

/** The first message for a field, if the API named it. */
export const fieldError = (problem: Problem | undefined, field: string): string | undefined =>
  problem?.errors[field]?.[0]
