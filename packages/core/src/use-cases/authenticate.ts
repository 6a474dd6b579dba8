/** Turning credentials into a Principal, and checking what it may do. */
import { DateTime, Effect, Option } from "effect"
import { TeamRepository } from "../account/team-repository.ts"
import { UserRepository } from "../account/user-repository.ts"
import { parseBearer } from "../auth/api-token.ts"
import type { Permission } from "../auth/permission.ts"
import { demand } from "../auth/caller-check.ts"
import type { Principal } from "../auth/principal.ts"
import { SessionRepository } from "../auth/session-repository.ts"
import { TokenHasher } from "../auth/token-hasher.ts"
import { TokenRepository } from "../auth/token-repository.ts"
import { type Forbidden, Unauthenticated } from "../errors.ts"

const TOUCH_INTERVAL_MS = 60_000

/**
 * The set of a member's grants, made once per list: an adapter that keeps grants across requests
 * answers the same array each time, so its set is not rebuilt (and reallocated) on every request.
 */
const permissionSets = new WeakMap<ReadonlyArray<Permission>, ReadonlySet<Permission>>()
const permissionSetOf = (grants: ReadonlyArray<Permission>): ReadonlySet<Permission> => {
  let set = permissionSets.get(grants)
  if (set === undefined) {
    set = new Set(grants)
    permissionSets.set(grants, set)
  }
  return set
}

/** The user's permissions in the account, provided the membership is active (one read). */
const permissionsOf = Effect.fnUntraced(function*(accountId: number, userId: number) {
  const grants = yield* (yield* TeamRepository).grantsOf(accountId, userId)
  if (Option.isNone(grants)) return yield* new Unauthenticated()
  return permissionSetOf(grants.value)
})

/**
 * The caller behind an API token: `bearer` is the value after `Authorization: Bearer`, i.e.
 * `<id>|<secret>`. The SHA-256 of the secret is compared with the stored one in constant time
 * (an unknown id takes as long). The token's last use, and its member's (`last_used` of the
 * membership), are recorded at most once a minute, the member's without holding up the request.
 *
 * Answers the {@link Principal} that acts in the token's account with the token's abilities and
 * the user's team permissions. Fails {@link Unauthenticated} for a malformed, unknown or revoked
 * token, or when the user is no longer an active member of the account.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { authenticateToken, bootstrapAccount, listRecords } from "@wasl/core"
 * import { WaslMemory } from "@wasl/adapters/memory"
 *
 * const program = Effect.gen(function*() {
 *   const { token } = yield* bootstrapAccount({
 *     account: "Acme", email: "owner@acme.test", password: "correct horse battery", plan: "business", otpCredits: 0
 *   })
 *   const principal = yield* authenticateToken(token) // what an HTTP request's bearer token would give
 *   return yield* listRecords(principal, "contact", {})
 * })
 *
 * Effect.runPromise(program.pipe(Effect.provide(WaslMemory.layer())))
 * ```
 */
export const authenticateToken: (
  bearer: string
) => Effect.Effect<Principal, Unauthenticated, TeamRepository | TokenHasher | TokenRepository | UserRepository> = Effect.fn(
  "authenticateToken"
)(function*(bearer: string) {
  const parts = parseBearer(bearer)
  if (parts === undefined) return yield* new Unauthenticated()
  const tokens = yield* TokenRepository
  const stored = yield* tokens.findById(parts.id)
  const hasher = yield* TokenHasher
  // Hash even for an unknown id so both paths take the same time.
  const matches = yield* hasher.matches(parts.secret, Option.match(stored, {
    onNone: () => "",
    onSome: (s) => s.secretHash
  }))
  if (Option.isNone(stored) || !matches) return yield* new Unauthenticated()
  const { accountId, userId, token } = stored.value
  const permissions = yield* permissionsOf(accountId, userId)
  // Record use at most once a minute, so a busy token does not write on every request. The
  // member's `last_used` moves with it, off the request's path (a detached fiber), and its write is
  // conditional, so the member's several tokens (and replicas) move it at most once a minute too.
  const now = yield* DateTime.now
  if (token.last_used_at === null || DateTime.toEpochMillis(now) - DateTime.toEpochMillis(token.last_used_at) >= TOUCH_INTERVAL_MS) {
    yield* tokens.touch(token.id)
    const since = DateTime.subtract(now, { milliseconds: TOUCH_INTERVAL_MS })
    yield* Effect.forkDetach((yield* UserRepository).touchMembershipUnlessSince(accountId, userId, since))
  }
  return {
    kind: "token",
    accountId,
    userId,
    permissions,
    abilities: token.abilities,
    tokenId: token.id,
    sessionId: null
  } satisfies Principal as Principal
})

/**
 * The caller behind a first-party session: `cookie` is the value of the `wasl_session` cookie
 * that `login` issued. Answers the {@link Principal} of the session's user in the session's
 * account (a session has no abilities of its own: it acts with the user's permissions). Fails
 * {@link Unauthenticated} for an unknown or expired session, or when the user is no longer an
 * active member of the account.
 */
export const authenticateSession: (
  cookie: string
) => Effect.Effect<Principal, Unauthenticated, SessionRepository | TeamRepository | TokenHasher> = Effect.fn(
  "authenticateSession"
)(function*(cookie: string) {
  const hasher = yield* TokenHasher
  const idHash = yield* hasher.hash(cookie)
  const session = yield* (yield* SessionRepository).find(idHash)
  if (Option.isNone(session)) return yield* new Unauthenticated()
  const now = yield* DateTime.now
  if (DateTime.isGreaterThanOrEqualTo(now, session.value.expiresAt)) {
    return yield* new Unauthenticated()
  }
  const { accountId, userId } = session.value
  const permissions = yield* permissionsOf(accountId, userId)
  return {
    kind: "session",
    accountId,
    userId,
    permissions,
    abilities: null,
    tokenId: null,
    sessionId: idHash
  } satisfies Principal as Principal
})

/**
 * Succeeds when the principal may use `permission` (a token needs the ability, or `*`, and its
 * user the permission; a session needs the permission); fails {@link Forbidden} otherwise. A
 * check of the caller ({@link demand}): a replay of the request asks it again.
 */
export const authorize = (principal: Principal, permission: Permission): Effect.Effect<void, Forbidden> =>
  demand(principal, { _tag: "Permission", anyOf: [permission] })

/**
 * For actions only API tokens may take (send-otp, verify): fails {@link Forbidden} for a session.
 * A check of the caller ({@link demand}): a replay of the request asks it again.
 */
export const requireToken = (principal: Principal): Effect.Effect<void, Forbidden> =>
  demand(principal, { _tag: "TokenOnly" })
