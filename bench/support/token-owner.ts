/**
 * A bearer token's owner the way a baseline checks it, in raw SQL: the token row by id and a
 * constant-time comparison of the secret's SHA-256. The foundation benchmark's baselines run it on
 * every request (their work is that of an uncached request); the records and writes benchmarks'
 * HttpApi floors keep what it found (`keptTokenOwner`), as Wasl's caches do.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import type { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import type { Caller } from "./httpapi-floor.ts"

const TOKEN = /^(\d{1,15})\|([A-Za-z0-9]{40})$/

/** The owner of `token` (`<id>|<secret>`), or undefined when there is no such token or the secret differs. */
export const tokenOwner = (sql: PgClient.PgClient, token: string): Effect.Effect<Caller | undefined> =>
  Effect.gen(function*() {
    const parts = TOKEN.exec(token)
    if (parts === null) return undefined
    const tokens = yield* sql<{ readonly account_id: string; readonly user_id: string; readonly secret_hash: string }>`
      SELECT account_id::text AS account_id, user_id::text AS user_id, secret_hash FROM api_tokens WHERE id = ${
      Number(parts[1])
    }
    `
    const expected = Buffer.from(tokens[0]?.secret_hash ?? "0".repeat(64))
    const actual = Buffer.from(createHash("sha256").update(parts[2]!).digest("hex"))
    const matches = expected.length === actual.length && timingSafeEqual(expected, actual)
    if (tokens.length === 0 || !matches) return undefined
    return { accountId: tokens[0]!.account_id, userId: tokens[0]!.user_id }
  }).pipe(Effect.orDie)

/**
 * `tokenOwner` read once per token and kept, as Wasl's caches keep it (without their invalidation:
 * a floor's work is the least a conforming server does per request).
 */
export const keptTokenOwner = (sql: PgClient.PgClient): (token: string) => Effect.Effect<Caller | undefined> => {
  const owners = new Map<string, Caller>()
  return (token) => {
    const kept = owners.get(token)
    if (kept !== undefined) return Effect.succeed(kept)
    return Effect.tap(tokenOwner(sql, token), (owner) => Effect.sync(() => owner !== undefined && owners.set(token, owner)))
  }
}
