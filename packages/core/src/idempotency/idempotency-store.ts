/**
 * Idempotency keys: a client that sends a state-changing request with a key may send it again —
 * after a timeout, a dropped connection, a crash of its own — and get the first answer back
 * instead of a second change.
 *
 * A key belongs to one caller in one account (`IdempotencyClaim`: account, principal, key). Its
 * first request runs the work; a successful answer is kept with the fingerprint of the request
 * (method, path, body) and the checks the request made of its caller, for
 * {@link IDEMPOTENCY_KEY_LIFETIME}. Then, while the key lives:
 * - the same request again is answered with the kept answer, and the work does not run again
 *   (the caller of the replay asks the kept checks again first: one who may no longer make the
 *   request is refused as a fresh request would be, and the key stays as it is);
 * - another request (another fingerprint) with the key is a `Mismatch`;
 * - a request with the key while the first is still running is `InFlight`, at once (it does not
 *   wait for the first).
 * A failed work, or one that answers nothing to keep, leaves the key free again, as if never used;
 * what the failed work wrote stays written, as it would without a key (a wrong OTP code still
 * counts as an attempt). An expired key is free too.
 *
 * Two ways to run the work:
 * - `"transaction"`: the work runs inside the transaction that keeps its answer, so the change and
 *   the kept answer commit together or not at all. A crash at any point leaves either both or
 *   neither: a retry replays, or runs the work for the first time. A work that fails commits what
 *   it wrote, with no answer kept; one that dies or is interrupted is rolled back. For work that
 *   only writes.
 * - `"outside"`: the key is claimed in a short transaction of its own, the work runs outside any
 *   transaction (it opens its own short ones, with calls to other services between them), and the
 *   answer is kept in another short transaction after it. A process that stops between the work's
 *   commit and that last transaction leaves the key claimed: every retry is `InFlight` until the
 *   key expires, so the work never runs twice. For work that calls out (a messaging provider).
 */
import { Context, Duration, type Effect } from "effect"
import type { CallerCheck } from "../auth/caller-check.ts"

/** How long a key is remembered after its first request: 24 hours. */
export const IDEMPOTENCY_KEY_LIFETIME: Duration.Duration = Duration.hours(24)

/** A request's claim on a key: whose key it is, the key, and what the request is. */
export interface IdempotencyClaim {
  /** The account the request acts in. */
  readonly accountId: number
  /** The caller within the account (an API token, or a user's sessions): keys of two callers never meet. */
  readonly principal: string
  /** The key the client sent. */
  readonly key: string
  /** A digest of the request (method, path, body): a replay must carry the same. */
  readonly fingerprint: string
}

/**
 * An answer kept for replays: status, content type and body (as the caller made it, e.g. sealed),
 * and the checks of the caller its request passed, which a replay asks again before it answers.
 */
export interface KeptAnswer {
  /** The HTTP status. */
  readonly status: number
  /** The body's content type. */
  readonly contentType: string
  /** The body. */
  readonly body: string
  /**
   * What the first request asked of its caller (`withCallerChecks`), to ask again of the caller
   * of a replay (`recheckCaller`). Null for an answer a store kept before it kept these: one
   * that cannot be replayed, since who may see it is unknown.
   */
  readonly callerChecks: ReadonlyArray<CallerCheck> | null
}

/** What a work gives back: its value, and the answer to keep for replays (undefined: keep none, free the key). */
export interface IdempotentWork<A> {
  /** What the first request answers. */
  readonly value: A
  /** The answer to replay later; undefined frees the key. */
  readonly keep: KeptAnswer | undefined
}

/** How a request with a key went. */
export type IdempotencyOutcome<A> =
  /** The key was free: the work ran now. */
  | { readonly _tag: "Ran"; readonly value: A }
  /** The same request came before: its kept answer. */
  | { readonly _tag: "Replayed"; readonly answer: KeptAnswer }
  /** A request with this key is still running. */
  | { readonly _tag: "InFlight" }
  /** The key was used for another request. */
  | { readonly _tag: "Mismatch" }

/** How the work runs: inside the transaction that keeps its answer, or outside any (see the module). */
export type IdempotencyMode = "transaction" | "outside"

/** What the {@link IdempotencyStore} port offers (implement this to write an adapter). */
export interface IdempotencyStoreShape {
  /**
   * Runs `work` under `claim` unless the key is taken (see {@link IdempotencyOutcome}); the work's
   * failure is passed on and frees the key. `mode` says how the work and the kept answer commit.
   */
  readonly run: <A, E, R>(
    claim: IdempotencyClaim,
    mode: IdempotencyMode,
    work: Effect.Effect<IdempotentWork<A>, E, R>
  ) => Effect.Effect<IdempotencyOutcome<A>, E, R>
}

const IdempotencyStoreBase: Context.ServiceClass<IdempotencyStore, "@wasl/core/IdempotencyStore", IdempotencyStoreShape> =
  Context.Service<IdempotencyStore, IdempotencyStoreShape>()("@wasl/core/IdempotencyStore")

/**
 * The idempotency keys of state-changing requests: the answer of a request kept with its key, so
 * a retry replays it instead of changing anything twice. Its operations: {@link IdempotencyStoreShape}.
 */
export class IdempotencyStore extends IdempotencyStoreBase {}
