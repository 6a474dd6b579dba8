/**
 * The monthly message allowance in use: taking one message of it for a template send (or a
 * campaign recipient), giving it back when the send did not happen, showing it, and setting a
 * `custom` plan's own allowance.
 */
import { DateTime, Effect, Option } from "effect"
import {
  allowanceMonth,
  allowanceResetsAt,
  MESSAGE_ALLOWANCE_USED_UP,
  type MessageAllowance,
  messageLimit
} from "../account/message-allowance.ts"
import { MessageAllowanceLedger } from "../account/message-allowance-ledger.ts"
import { invalid, NotFound, PaymentRequired, type ValidationFailed } from "../errors.ts"

/** One message of an account's allowance, taken: the month it counts in, so it can be given back. */
export interface AllowanceUse {
  /** The account it was taken from. */
  readonly accountId: number
  /** The first instant (UTC) of the month it counts in. */
  readonly month: DateTime.Utc
}

/**
 * Takes one message of the account's allowance for this calendar month (UTC, by the Clock), before
 * the provider is called. Fails {@link PaymentRequired} ({@link MESSAGE_ALLOWANCE_USED_UP}) when
 * the month's allowance is used up, or the account is gone. Exact under concurrency: the count
 * never passes the limit. Inside a transaction the count stays locked until it ends, so a caller
 * that stores each message in the transaction that takes its allowance (a campaign, one recipient
 * at a time) never counts a message it did not store. A send the provider then refuses gives it
 * back with {@link giveBackMessageAllowance}.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { giveBackMessageAllowance, useMessageAllowance } from "@wasl/core"
 *
 * // One recipient of a campaign: take its message of the allowance, send, give it back on failure.
 * const sendOne = <A, E, R>(accountId: number, send: Effect.Effect<A, E, R>) =>
 *   Effect.flatMap(useMessageAllowance(accountId), (use) =>
 *     send.pipe(Effect.onError(() => giveBackMessageAllowance(use))))
 * ```
 */
export const useMessageAllowance: (
  accountId: number
) => Effect.Effect<AllowanceUse, PaymentRequired, MessageAllowanceLedger> = Effect.fn("useMessageAllowance")(
  function*(accountId: number) {
    const ledger = yield* MessageAllowanceLedger
    const month = allowanceMonth(yield* DateTime.now)
    const count = yield* ledger.read(accountId, month)
    const limit = Option.match(count, { onNone: () => 0, onSome: (c) => messageLimit(c.plan, c.customLimit) })
    if (!(yield* ledger.use(accountId, month, limit))) {
      return yield* new PaymentRequired({ message: MESSAGE_ALLOWANCE_USED_UP })
    }
    return { accountId, month }
  }
)

/**
 * {@link useMessageAllowance} for up to `count` messages at once (a batch of a campaign's
 * recipients): takes as many as the month's allowance still has, atomically, and answers how
 * many, with the use each one gives back with {@link giveBackMessageAllowance}.
 */
export const useMessageAllowances: (
  accountId: number,
  count: number
) => Effect.Effect<{ readonly use: AllowanceUse; readonly granted: number }, never, MessageAllowanceLedger> = Effect.fn(
  "useMessageAllowances"
)(function*(accountId: number, count: number) {
  const ledger = yield* MessageAllowanceLedger
  const month = allowanceMonth(yield* DateTime.now)
  const found = yield* ledger.read(accountId, month)
  const limit = Option.match(found, { onNone: () => 0, onSome: (c) => messageLimit(c.plan, c.customLimit) })
  return { use: { accountId, month }, granted: yield* ledger.useUpTo(accountId, month, limit, count) }
})

/** Gives back a message {@link useMessageAllowance} took, for a send that did not happen. */
export const giveBackMessageAllowance = (use: AllowanceUse): Effect.Effect<void, never, MessageAllowanceLedger> =>
  MessageAllowanceLedger.use((ledger) => ledger.giveBack(use.accountId, use.month))

/**
 * The account's allowance this calendar month (UTC, by the Clock), as `GET /api/me` shows it:
 * its limit, the messages used and when the count starts again (the first instant of next month).
 */
export const messageAllowanceOf: (
  accountId: number
) => Effect.Effect<MessageAllowance, never, MessageAllowanceLedger> = Effect.fn("messageAllowanceOf")(
  function*(accountId: number) {
    const month = allowanceMonth(yield* DateTime.now)
    const count = yield* MessageAllowanceLedger.use((ledger) => ledger.read(accountId, month))
    return Option.match(count, {
      onNone: () => ({ limit: 0, used: 0, resets_at: allowanceResetsAt(month) }),
      onSome: (c) => ({ limit: messageLimit(c.plan, c.customLimit), used: c.used, resets_at: allowanceResetsAt(month) })
    })
  }
)

/**
 * Sets the monthly allowance the account has on the `custom` plan (null: none); the other plans
 * keep their own. An operator action: no permission check. Fails {@link ValidationFailed} on
 * `messages` unless it is null or a non-negative integer, {@link NotFound} for an unknown account.
 */
export const setCustomMessageLimit: (
  accountId: number,
  limit: number | null
) => Effect.Effect<void, NotFound | ValidationFailed, MessageAllowanceLedger> = Effect.fn("setCustomMessageLimit")(
  function*(accountId: number, limit: number | null) {
    if (limit !== null && (!Number.isSafeInteger(limit) || limit < 0)) {
      return yield* invalid("messages", "The message allowance must be a non-negative integer.")
    }
    if (!(yield* MessageAllowanceLedger.use((ledger) => ledger.setCustomLimit(accountId, limit)))) {
      return yield* new NotFound()
    }
  }
)
