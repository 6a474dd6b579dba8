/**
 * The `Idempotency-Key` header in the OpenAPI document: the optional header, the 409 and the 422
 * of the key on every operation that honours it. Apart from idempotency.ts so that the contract
 * (and the client built from it) does not pull in the server's machinery.
 */

/** The request header that carries an idempotency key. */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key"

/** The answer header that marks a replayed answer (`true`). */
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed"

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"])
/** Logout's answer clears a cookie: there is nothing to replay, so it does not take a key. */
const NOT_KEYED = new Set(["/api/auth/logout"])

/**
 * Whether a request honours `Idempotency-Key`: a state-changing method (POST, PUT, PATCH,
 * DELETE) on an authenticated endpoint (the caller of `idempotent` is the authentication), logout
 * aside.
 */
export const takesIdempotencyKey = (method: string, path: string): boolean =>
  !SAFE_METHODS.has(method.toUpperCase()) && !NOT_KEYED.has(path)

const HEADER_DESCRIPTION = "Optional. A key of your choosing (1 to 255 visible ASCII characters, a UUID for instance) that " +
  "makes a retry safe: the same request again with the same key, within 24 hours, is answered with the first answer " +
  "(same status and body, with the header Idempotent-Replayed: true) and changes nothing — no second record, event, " +
  "message or charge. Only successful answers are kept: after an error answer the key runs the next request again. " +
  "Keys belong to the API token (or to the user, for a session) in the account. A replay is answered only to a caller " +
  "who may still make the request: a revoked token is a 401, and a caller who no longer holds a permission (or ability) " +
  "the first request needed gets the 403 a fresh request would, until it holds it again."

const CONFLICT_DESCRIPTION = "A request with this Idempotency-Key is still in progress: retry later."
const KEY_422 = " Also: an Idempotency-Key already used with another request (method, path or body), or not 1 to 255 visible ASCII characters."

type Operation = {
  parameters?: Array<unknown>
  security?: ReadonlyArray<unknown>
  responses?: Record<string, { description?: string; content?: unknown }>
}

/**
 * Adds the `Idempotency-Key` header and its 409 and 422 answers to every authenticated operation
 * that changes state (an `OpenApi` transform of the whole document).
 */
export const documentIdempotencyKeys = (spec: Record<string, any>): Record<string, any> => {
  for (const [path, item] of Object.entries(spec.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== "object" || (operation.security?.length ?? 0) === 0) continue
      if (!takesIdempotencyKey(method, path)) continue
      operation.parameters = [...(operation.parameters ?? []), {
        name: IDEMPOTENCY_KEY_HEADER,
        in: "header",
        required: false,
        description: HEADER_DESCRIPTION,
        schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[!-~]+$" }
      }]
      const responses = operation.responses ??= {}
      responses["409"] = {
        description: CONFLICT_DESCRIPTION,
        content: {
          "application/json": {
            schema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] }
          }
        }
      }
      const invalid = responses["422"]
      responses["422"] = invalid === undefined
        ? {
          description: KEY_422.trim().replace(/^Also: a/, "A"),
          content: { "application/json": { schema: { $ref: "#/components/schemas/Validation422Encoded" } } }
        }
        : { ...invalid, description: (invalid.description ?? "") + KEY_422 }
    }
  }
  return spec
}
