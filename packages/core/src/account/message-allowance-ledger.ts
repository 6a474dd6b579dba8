/**
 * The accounts' monthly message allowance counts. Every method takes the account and never sees
 * another account's rows.
 */
import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Plan } from "./plan.ts"

/** What {@link MessageAllowanceLedgerShape.read} answers: what the account's limit is made of and its count. */
export interface MessageAllowanceCount {
  /** The account's plan. */
  readonly plan: Plan
  /** The allowance of a `custom` plan; null when none is set. */
  readonly customLimit: number | null
  /** Messages used in the month asked about. */
  readonly used: number
}

/** What the MessageAllowanceLedger port offers (implement this to write an adapter). */
export interface MessageAllowanceLedgerShape {
  /**
   * Uses one message of the account's allowance in `month` (its first instant, UTC), atomically:
   * false (and nothing changes) when `limit` are used already. Inside a transaction the count stays
   * locked until it ends, so concurrent uses queue and never pass the limit.
   */
  readonly use: (accountId: number, month: DateTime.Utc, limit: number) => Effect.Effect<boolean>
  /**
   * Uses up to `count` messages of the account's allowance in `month` at once, atomically, as many
   * as `limit` still allows; answers how many (0 when it is used up, or for an unknown account).
   * Inside a transaction the count stays locked until it ends, as with `use`.
   */
  readonly useUpTo: (accountId: number, month: DateTime.Utc, limit: number, count: number) => Effect.Effect<number>
  /** Gives back one message used in `month` (a send that did not happen); never below zero. */
  readonly giveBack: (accountId: number, month: DateTime.Utc) => Effect.Effect<void>
  /** The account's plan, custom allowance and count in `month`; none for an unknown account. */
  readonly read: (accountId: number, month: DateTime.Utc) => Effect.Effect<Option.Option<MessageAllowanceCount>>
  /** Sets the allowance a `custom` plan gives the account (null: none); false for an unknown account. */
  readonly setCustomLimit: (accountId: number, limit: number | null) => Effect.Effect<boolean>
}

const MessageAllowanceLedgerBase: Context.ServiceClass<
  MessageAllowanceLedger,
  "@wasl/core/MessageAllowanceLedger",
  MessageAllowanceLedgerShape
> = Context.Service<MessageAllowanceLedger, MessageAllowanceLedgerShape>()("@wasl/core/MessageAllowanceLedger")

/**
 * How many template messages each account used in each calendar month (UTC), and the allowance of
 * a `custom` plan. Its operations: {@link MessageAllowanceLedgerShape}.
 */
export class MessageAllowanceLedger extends MessageAllowanceLedgerBase {}
