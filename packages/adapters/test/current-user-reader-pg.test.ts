/**
 * `CurrentUserReaderPg` reads its parts in one statement, aggregated per column; these tests
 * pin what the contract suite (repositories.test.ts) cannot reach through the ports: timestamps
 * with microseconds, as PostgreSQL's own clock writes them, come out of the combined read exactly
 * as out of each part's own read, on PGlite and on PostgreSQL.
 */
import { assert, describe, layer } from "@effect/vitest"
import { AccountRepository, CurrentUserReader, TeamRepository, UserRepository } from "@wasl/core/Accounts"
import { NotificationRepository } from "@wasl/core/Notifications"
import { SavedViewRepository } from "@wasl/core/Records"
import { makeRecordId } from "@wasl/core/Wire"
import { DateTime, Effect, Layer, Option } from "effect"
import { SecureRandom } from "effect/crypto"
import { SqlClient } from "effect/sql"
import { MigrationsLive } from "../src/db/database.ts"
import { TestDatabase } from "../src/db/test-database.ts"
import { RepositoriesPg } from "../src/pg/index.ts"

describe.each(TestDatabase.variants)("CurrentUserReaderPg on $name", ({ enabled, layer: database }) => {
  describe.runIf(enabled)("", () => {
    const repositories = RepositoriesPg.pipe(
      Layer.provideMerge(MigrationsLive),
      Layer.provide(SecureRandom.layerWebCrypto),
      Layer.provideMerge(database)
    )
    layer(repositories, { excludeTestServices: true })((it) => {
      it.effect("gives every timestamp, microseconds and all, as the parts' own reads do", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const users = yield* UserRepository
          const accounts = yield* AccountRepository
          const teams = yield* TeamRepository
          const notifications = yield* NotificationRepository
          const account = yield* accounts.create({ name: "Acme", plan: "business", webhookLimit: null, otpCredits: 0 })
          const user = yield* Effect.orDie(
            users.create({ email: "micro@example.com", passwordHash: "x", firstname: "A", lastname: "B" })
          )
          yield* users.addMembership(account.id, user.id)
          for (const name of ["First", "Second"]) {
            yield* teams.create({ accountId: account.id, name, description: null, madeBy: null, permissions: [] }, [
              user.id
            ])
          }
          yield* sql`
            INSERT INTO notification_preferences
              (account_id, user_id, name, stored, popup, browser, email, created_at, updated_at)
            VALUES (${account.id}, ${user.id}, 'IncomingMessage', true, true, true, true, now(), now())
          `
          // Microseconds everywhere (a day apart per column, one microsecond before midnight, so
          // on both sides of 1970 and of 2000, the codec's two epochs), every nullable one set.
          const stamp = (days: number) => sql.literal(`(timestamptz '1969-12-31 23:59:59.999999+00' + interval '${days} day')`)
          yield* sql`UPDATE users SET created_at = ${stamp(1)}, updated_at = ${stamp(2)}, email_verified_at = ${stamp(3)} WHERE id = ${user.id}`
          yield* sql`UPDATE accounts SET created_at = ${stamp(10957)}, updated_at = ${stamp(10958)} WHERE id = ${account.id}`
          yield* sql`
            UPDATE account_user SET created_at = now(), updated_at = clock_timestamp(), last_used = ${stamp(20000)}
            WHERE account_id = ${account.id} AND user_id = ${user.id}
          `
          yield* sql`
            UPDATE subscriptions SET trial_ends_at = ${stamp(4)}, paused_at = ${stamp(5)}, ends_at = ${stamp(6)},
              canceled_at = ${stamp(7)}, will_change_at = ${stamp(8)}, created_at = ${stamp(9)}
            WHERE account_id = ${account.id}
          `
          yield* sql`UPDATE teams SET created_at = clock_timestamp(), updated_at = ${stamp(-1)} WHERE account_id = ${account.id}`
          yield* sql`UPDATE team_user SET created_at = clock_timestamp() WHERE account_id = ${account.id}`
          // Two months counted: the latest one is read, with the custom allowance.
          yield* sql`UPDATE accounts SET message_limit = 2500 WHERE id = ${account.id}`
          yield* sql`
            INSERT INTO message_allowance_usage (account_id, month, used)
            VALUES (${account.id}, '2031-02-01', 9), (${account.id}, '2031-03-01', 4)
          `

          // A chosen deals view, so the combined read carries one id and two nulls.
          const views = yield* SavedViewRepository
          const viewId = makeRecordId(1_900_000_000, new Uint8Array(8).fill(7))
          const now = yield* DateTime.now
          yield* views.save({
            _id: viewId, kind: "deal", account_id: account.id, user_id: user.id, name: "Mine", search: null, order: null,
            direction: null, complex_filters: [], columns: [], shared: false, created_at: now, updated_at: now
          })
          yield* views.choose(account.id, user.id, "deal", viewId)

          const parts = Option.getOrThrow(yield* (yield* CurrentUserReader).read(account.id, user.id))
          assert.deepStrictEqual(parts, {
            user: Option.getOrThrow(yield* users.findById(user.id)),
            account: Option.getOrThrow(yield* accounts.findById(account.id)),
            membership: Option.getOrThrow(yield* users.findMembership(account.id, user.id)),
            teams: yield* teams.listForUser(account.id, user.id),
            preferences: yield* notifications.listPreferences(account.id, user.id),
            unreadCount: yield* notifications.unreadCount(account.id, user.id),
            subscription: Option.some(yield* Effect.orDie(accounts.subscription(account.id))),
            messageAllowance: { customLimit: 2500, month: "2031-03-01", used: 4 },
            views: { contact: null, deal: viewId, ticket: null }
          })
          // The instants themselves: the driver's microseconds cut to JavaScript's milliseconds.
          assert.strictEqual(DateTime.formatIso(parts.user.created_at), "1970-01-01T23:59:59.999Z")
          assert.strictEqual(DateTime.formatIso(parts.user.email_verified_at!), "1970-01-03T23:59:59.999Z")
          assert.strictEqual(DateTime.formatIso(parts.account.created_at), "1999-12-31T23:59:59.999Z")
          assert.strictEqual(parts.membership.last_used, "2024-10-03 23:59:59")
          assert.strictEqual(DateTime.formatIso(parts.teams[0]!.updated_at), "1969-12-30T23:59:59.999Z")
          assert.strictEqual(parts.teams.length, 2)
          assert.strictEqual(parts.preferences.length, 1)
        }))
    })
  })
})
