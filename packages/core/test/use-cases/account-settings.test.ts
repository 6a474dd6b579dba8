/** The account's settings (`PUT /api/account`) and a member's own (`PUT /api/me/preferences`). */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  AccountRepository,
  updateAccountSettings,
  updateMemberPreferences,
  UserRepository
} from "../../src/Accounts.ts"
import { authenticateToken, issueToken } from "../../src/Auth.ts"
import { type ValidationFailed } from "../../src/errors.ts"
import { addMember, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"

const errorsOf = (error: ValidationFailed | { readonly _tag: string }) => "errors" in error ? error.errors : {}

describe("updateAccountSettings", () => {
  it.effect("sets each field in its canonical form; a field left out keeps its value, null clears it", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const me = yield* updateAccountSettings(principal, {
        name: "  Acme Arabia ",
        industry: "Retail",
        logo: "https://example.com/logo.png",
        address: "King Fahd Road",
        timeZone: "asia/riyadh",
        calendar: "Islamic-Umalqura",
        hour12: true,
        locale: "ar-sa",
        currency: "sar"
      })
      assert.deepInclude(me.account, {
        name: "Acme Arabia",
        industry: "Retail",
        logo: "https://example.com/logo.png",
        address: "King Fahd Road",
        timeZone: "Asia/Riyadh",
        calendar: "islamic-umalqura",
        hour12: true,
        locale: "ar-SA",
        currency: "SAR"
      })
      const kept = yield* updateAccountSettings(principal, { industry: null, currency: "" })
      assert.deepInclude(kept.account, { name: "Acme Arabia", industry: null, currency: null, timeZone: "Asia/Riyadh" })
      const stored = Option.getOrThrow(yield* (yield* AccountRepository).findById(principal.accountId))
      assert.strictEqual(stored.timeZone, "Asia/Riyadh")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("refuses what is not a zone, currency, locale, calendar or https logo, every field at once, and writes nothing", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const before = Option.getOrThrow(yield* (yield* AccountRepository).findById(principal.accountId))
      const error = yield* Effect.flip(updateAccountSettings(principal, {
        name: " ",
        logo: "http://example.com/logo.png",
        timeZone: "Mars/Olympus",
        calendar: "martian",
        locale: "not a locale!",
        currency: "XYZ1",
        address: "x".repeat(1001)
      }))
      assert.deepStrictEqual(errorsOf(error), {
        name: ["The name field is required."],
        logo: ["The logo field must start with one of the following: https://."],
        address: ["The address field must not be greater than 1000 characters."],
        timeZone: ["The timeZone field must be a valid IANA time zone, such as Asia/Riyadh."],
        calendar: ["The selected calendar is invalid."],
        locale: ["The locale field must be a BCP 47 language tag."],
        currency: ["The currency field must be an ISO 4217 currency code, such as SAR."]
      })
      const offset = yield* Effect.flip(updateAccountSettings(principal, { timeZone: "+01:00", currency: "ABC", logo: "a logo" }))
      assert.deepStrictEqual(Object.keys(errorsOf(offset)).sort(), ["currency", "logo", "timeZone"])
      assert.deepStrictEqual(errorsOf(offset)["logo"], ["The logo field must be a valid URL."])
      assert.deepStrictEqual(yield* (yield* AccountRepository).findById(principal.accountId), Option.some(before))
    }).pipe(Effect.provide(TestPorts())))

  it.effect("needs account-manage", () =>
    Effect.gen(function*() {
      const { account_id } = yield* setup()
      const member = yield* addMember(account_id, "agent@example.com", ["contact-index"])
      const { plainText } = yield* issueToken({ accountId: account_id, userId: member.id, name: "t", abilities: ["*"] })
      const refused = yield* Effect.flip(updateAccountSettings(yield* authenticateToken(plainText), { name: "Mine now" }))
      assert.strictEqual(refused._tag, "Forbidden")
    }).pipe(Effect.provide(TestPorts())))
})

describe("updateMemberPreferences", () => {
  it.effect("changes the caller's own settings in the account only, validated as the account's", () =>
    Effect.gen(function*() {
      const { principal, account_id } = yield* setup()
      const member = yield* addMember(account_id, "agent@example.com", [])
      const me = yield* updateMemberPreferences(principal, { timeZone: "Europe/Paris", hour12: true, locale: "fr", currency: "eur" })
      assert.deepInclude(me.account.pivot, { timeZone: "Europe/Paris", hour12: true, locale: "fr", currency: "EUR", calendar: null })
      const theirs = Option.getOrThrow(yield* (yield* UserRepository).findMembership(account_id, member.id))
      assert.deepInclude(theirs, { timeZone: "UTC", hour12: false })
      const bad = yield* Effect.flip(updateMemberPreferences(principal, { timeZone: " ", calendar: "nope", currency: "euro" }))
      assert.deepStrictEqual(errorsOf(bad), {
        timeZone: ["The timeZone field is required."],
        calendar: ["The selected calendar is invalid."],
        currency: ["The currency field must be an ISO 4217 currency code, such as SAR."]
      })
    }).pipe(Effect.provide(TestPorts())))
})
