/** Turning credentials into a Principal, and checking what it may do. */
import { DateTime, Effect, Option } from "effect"
import { TeamRepository } from "../account/team-repository.ts"
import { parseBearer } from "../auth/api-token.ts"
import type { Permission } from "../auth/permission.ts"
import { allows, type Principal } from "../auth/principal.ts"
import { SessionRepository } from "../auth/session-repository.ts"
import { TokenHasher } from "../auth/token-hasher.ts"
import { TokenRepository } from "../auth/token-repository.ts"
import { forbidden, Unauthenticated } from "../errors.ts"

const TOUCH_INTERVAL_MS = 60_000

/** The user's permissions in the account, provided the membership is active (one read). */
const permissionsOf = Effect.fnUntraced(function*(accountId: number, userId: number) {
  const grants = yield* (yield* TeamRepository).grantsOf(accountId, userId)
  if (Option.isNone(grants)) return yield* new Unauthenticated()
  return new Set<Permission>(grants.value)
})

/** `Authorization: Bearer <id>|<secret>`: SHA-256 of the secret compared in constant time. */
export const authenticateToken = Effect.fn("authenticateToken")(function*(bearer: string) {
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
  // Record use at most once a minute, so a busy token does not write on every request.
  const now = yield* DateTime.now
  if (token.last_used_at === null || DateTime.toEpochMillis(now) - DateTime.toEpochMillis(token.last_used_at) >= TOUCH_INTERVAL_MS) {
    yield* tokens.touch(token.id)
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

/** The `wasl_session` cookie value. */
export const authenticateSession = Effect.fn("authenticateSession")(function*(cookie: string) {
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

/** Fails 403 unless the principal may use `permission`. */
export const authorize = (principal: Principal, permission: Permission) =>
  allows(principal, permission) ? Effect.void : Effect.fail(forbidden())

/** For actions only API tokens may take (send-otp, verify): sessions are refused. */
export const requireToken = (principal: Principal) =>
  principal.kind === "token" ? Effect.void : Effect.fail(forbidden("This action requires an API token."))
