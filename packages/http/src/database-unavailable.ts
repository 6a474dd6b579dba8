/**
 * Whether a request failed because the database cannot be reached for now: a connection that
 * could not be opened or died (a primary restarting, failing over, or the network between), a
 * server shutting down or starting up (SQLSTATE 57P01, 57P02, 57P03), a standby not promoted yet
 * taking a write (25006), no connection slot left (53300). Such a request is answered 503 with
 * `Retry-After`, not 500: the client's retry — with its `Idempotency-Key` for a write — is
 * what brings it through once the database is back.
 */
import { Cause } from "effect"
import { isSqlError } from "effect/sql/SqlError"

const TRANSIENT_STATES: ReadonlySet<string> = new Set(["57P01", "57P02", "57P03", "25006", "53300"])

/** The SQLSTATE of a driver error, when it has one. */
const sqlState = (error: unknown): string | undefined => {
  const code = (error as { readonly code?: unknown } | null | undefined)?.code
  return typeof code === "string" ? code : undefined
}

const isUnavailable = (value: unknown): boolean => {
  if (!isSqlError(value)) return false
  const reason = value.reason
  if (reason._tag === "ConnectionError") return true
  const state = sqlState(reason.cause)
  return state !== undefined && TRANSIENT_STATES.has(state)
}

/** Whether `cause` holds a database failure another try soon may get past (see the module comment). */
export const isDatabaseUnavailable = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((reason) =>
    Cause.isFailReason(reason) ? isUnavailable(reason.error) : Cause.isDieReason(reason) ? isUnavailable(reason.defect) : false
  )
