import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Schema } from "effect"
import { CurrentUser, currentUser, NOTIFICATION_NAMES } from "../../src/Accounts.ts"
import { PERMISSIONS } from "../../src/Auth.ts"
import { loginSession, OWNER, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"
import { removeAccount, removeSubscription, setPreferences, setUnread } from "../support/store.ts"

const WIRE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const NOW_WIRE = "2026-11-21T17:24:05.123000Z"

/** Every string under a key named like a timestamp. */
const timestamps = (value: unknown, path = ""): Array<[string, unknown]> => {
  if (Array.isArray(value)) return value.flatMap((v, i) => timestamps(v, `${path}.${i}`))
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) =>
      /(_at|_ends_at)$/.test(k) && v !== null ? [[`${path}.${k}`, v] as [string, unknown]] : timestamps(v, `${path}.${k}`)
    )
  }
  return []
}

describe("currentUser", () => {
  it.effect("encodes with the CurrentUser schema, timestamps in wire form", () =>
    Effect.gen(function*() {
      const { account_id, user_id } = yield* setup()
      const value = yield* currentUser({ accountId: account_id, userId: user_id })
      const encoded = Schema.encodeUnknownSync(CurrentUser)(value) as Record<string, any>

      const stamps = timestamps(encoded)
      assert.isAbove(stamps.length, 8)
      for (const [path, stamp] of stamps) {
        assert.isString(stamp, path)
        assert.match(stamp as string, WIRE, path)
      }
      assert.strictEqual(encoded.created_at, NOW_WIRE)
      assert.strictEqual(encoded.account.created_at, NOW_WIRE)
      assert.strictEqual(encoded.account.pivot.created_at, NOW_WIRE)
      assert.strictEqual(encoded.account.subscription.created_at, NOW_WIRE)
      assert.strictEqual(encoded.teams[0].pivot.created_at, NOW_WIRE)

      // Survives JSON and decodes back to the same value.
      const json = JSON.parse(JSON.stringify(encoded))
      assert.deepStrictEqual(Schema.decodeUnknownSync(CurrentUser)(json), value)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("has the shape of GET /api/me", () =>
    Effect.gen(function*() {
      const { account_id, user_id, team_id } = yield* setup()
      const encoded = Schema.encodeUnknownSync(CurrentUser)(
        yield* currentUser({ accountId: account_id, userId: user_id })
      ) as Record<string, any>
      assert.strictEqual(encoded.id, user_id)
      assert.strictEqual(encoded.email, OWNER.email)
      assert.isNull(encoded.email_verified_at)
      for (const key of ["firstname", "lastname", "locale"]) assert.isString(encoded[key], key)
      for (const key of ["image", "contacts_view_id", "deals_view_id"]) assert.property(encoded, key)
      assert.strictEqual(encoded.has2FA, false)
      assert.strictEqual(encoded.unread_notifications_count, 0)

      const account = encoded.account
      assert.strictEqual(account.id, account_id)
      assert.strictEqual(account.name, OWNER.account)
      assert.strictEqual(account.plan, "business")
      assert.strictEqual(account.otp_credits, 10)
      assert.notProperty(account, "webhook_limit")
      for (const key of ["industry", "logo", "address", "timeZone", "calendar", "hour12", "locale", "currency"]) {
        assert.property(account, key)
      }
      assert.strictEqual(account.pivot.user_id, user_id)
      assert.strictEqual(account.pivot.account_id, account_id)
      assert.strictEqual(account.pivot.status, "active")
      assert.isString(account.pivot.timeZone)
      assert.isBoolean(account.pivot.hour12)
      assert.strictEqual(account.subscription.account_id, account_id)
      assert.isString(account.subscription.id)
      assert.isString(account.subscription.provider)
      assert.isNumber(account.subscription.interval)

      assert.deepStrictEqual(encoded.notification_preferences.map((p: { name: string }) => p.name), [...NOTIFICATION_NAMES])
      assert.strictEqual(encoded.teams.length, 1)
      assert.strictEqual(encoded.teams[0].id, team_id)
      assert.strictEqual(encoded.teams[0].account_id, account_id)
      assert.deepStrictEqual(encoded.teams[0].pivot.user_id, user_id)
      assert.deepStrictEqual(encoded.teams[0].pivot.team_id, team_id)
      assert.sameMembers(encoded.teams[0].permissions, [...PERMISSIONS])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("shows stored preferences over the defaults, and the unread count", () =>
    Effect.gen(function*() {
      const { account_id, user_id } = yield* setup()
      yield* setPreferences(account_id, user_id, [
        { name: "ObjectsExport", stored: true, popup: false, browser: false, email: false, id: 7, user_id, account_id }
      ])
      yield* setUnread(account_id, user_id, 3)
      const value = yield* currentUser({ accountId: account_id, userId: user_id })
      assert.strictEqual(value.unread_notifications_count, 3)
      const exportPreference = value.notification_preferences.find((p) => p.name === "ObjectsExport")!
      assert.strictEqual(exportPreference.email, false)
      assert.strictEqual(exportPreference.id, 7)
      for (const p of value.notification_preferences.filter((p) => p.name !== "ObjectsExport")) {
        assert.isTrue(p.stored && p.popup && p.browser && p.email)
      }
      Schema.encodeUnknownSync(CurrentUser)(value)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("the login response encodes the same way", () =>
    Effect.gen(function*() {
      yield* setup()
      const { user } = yield* loginSession(OWNER.email, OWNER.password)
      const encoded = Schema.encodeUnknownSync(CurrentUser)(user) as Record<string, any>
      assert.match(encoded.account.pivot.last_used, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("without a membership of the account it is Unauthenticated", () =>
    Effect.gen(function*() {
      const first = yield* setup()
      const second = yield* setup({ ...OWNER, account: "Other", email: "owner@other.example" })
      const error = yield* Effect.flip(currentUser({ accountId: second.account_id, userId: first.user_id }))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("for an unknown user it is Unauthenticated", () =>
    Effect.gen(function*() {
      const { account_id } = yield* setup()
      const error = yield* Effect.flip(currentUser({ accountId: account_id, userId: 999 }))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))

  // The code checks `Option.isNone(account)` to answer Unauthenticated, but the
  // subscription lookup (orDie) runs first and dies: a 500 instead of a 401.
  it.effect("for an account that no longer exists it is Unauthenticated, not a defect", () =>
    Effect.gen(function*() {
      const { account_id, user_id } = yield* setup()
      yield* removeAccount(account_id)
      const exit = yield* Effect.exit(currentUser({ accountId: account_id, userId: user_id }))
      assert.strictEqual(exit._tag, "Failure")
      const error = yield* Effect.flip(currentUser({ accountId: account_id, userId: user_id }))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("an account without its subscription is a defect, not a client error", () =>
    Effect.gen(function*() {
      const { account_id, user_id } = yield* setup()
      yield* removeSubscription(account_id)
      const exit = yield* Effect.exit(currentUser({ accountId: account_id, userId: user_id }))
      assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
    }).pipe(Effect.provide(TestPorts())))
})
