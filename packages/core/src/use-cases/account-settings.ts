/**
 * The account's settings (`PUT /api/account`) and a member's own settings in it
 * (`PUT /api/me/preferences`, the membership's pivot): names, a logo, a time zone, a calendar, a
 * 12-hour clock, a locale and a currency, each validated and kept in its canonical form.
 */
import { Effect, Option } from "effect"
import type { Account, Membership } from "../account/account.ts"
import { AccountRepository, type AccountSettings } from "../account/account-repository.ts"
import type { CurrentUser } from "../account/current-user.ts"
import type { CurrentUserReader } from "../account/current-user-reader.ts"
import type { MessageAllowanceLedger } from "../account/message-allowance-ledger.ts"
import { type MemberPreferences, UserRepository } from "../account/user-repository.ts"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, type NotFound, Unauthenticated, ValidationFailed } from "../errors.ts"
import { laravelTrim } from "../validation/laravel-trim.ts"
import { LaravelMessageMore } from "../validation/more-validation-messages.ts"
import {
  canonicalCalendar,
  canonicalCurrency,
  canonicalLanguageTag,
  canonicalTimeZone,
  isHttpsUrl
} from "../validation/settings-values.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { authorize } from "./authenticate.ts"
import { accountName } from "./accounts.ts"
import { currentUser } from "./current-user.ts"

const TEXT_MAX = 255
const ADDRESS_MAX = 1000
const URL_MAX = 2048

/** The messages of settings values that are not what they must be. */
export const SettingsMessage = {
  /** A time zone that is not an IANA zone name. */
  timeZone: (key: string): string => `The ${key} field must be a valid IANA time zone, such as Asia/Riyadh.`,
  /** A currency that is not an ISO 4217 code. */
  currency: (key: string): string => `The ${key} field must be an ISO 4217 currency code, such as SAR.`,
  /** A locale that is not a BCP 47 language tag. */
  locale: (key: string): string => `The ${key} field must be a BCP 47 language tag.`,
  /** A URL that is not https. */
  https: (key: string): string => `The ${key} field must start with one of the following: https://.`
} as const

/** What `PUT /api/account` may change; a field left out keeps its value, null clears it (but the name). */
export interface AccountSettingsChanges {
  /** The account's name (trimmed, not empty). */
  readonly name?: string
  /** The line of business. */
  readonly industry?: string | null
  /** The logo's https URL. */
  readonly logo?: string | null
  /** The postal address. */
  readonly address?: string | null
  /** An IANA time zone name. */
  readonly timeZone?: string | null
  /** A Unicode calendar identifier (`gregory`, `islamic-umalqura`, …). */
  readonly calendar?: string | null
  /** Whether times show on a 12-hour clock. */
  readonly hour12?: boolean | null
  /** A BCP 47 language tag. */
  readonly locale?: string | null
  /** An ISO 4217 currency code. */
  readonly currency?: string | null
}

/** What `PUT /api/me/preferences` may change; a field left out keeps its value, null clears it (but timeZone and hour12). */
export interface MemberPreferencesChanges {
  /** An IANA time zone name. */
  readonly timeZone?: string
  /** A Unicode calendar identifier; null: the account's. */
  readonly calendar?: string | null
  /** Whether times show on a 12-hour clock. */
  readonly hour12?: boolean
  /** A BCP 47 language tag; null: the account's. */
  readonly locale?: string | null
  /** An ISO 4217 currency code; null: the account's. */
  readonly currency?: string | null
}

/** Collects each field's messages while the changes are applied. */
const fieldChecker = () => {
  const errors: Record<string, Array<string>> = {}
  const fail = (field: string, message: string) => {
    ;(errors[field] ??= []).push(message)
    return undefined
  }
  /**
   * The changed value (the current one when left out): null stays null, a text is
   * trimmed (empty means null), then read by `canonical`, which answers the stored form or fails.
   */
  const value = <T extends string | null>(
    given: string | null | undefined,
    current: T,
    canonical: (text: string) => string | undefined
  ): string | null | T => {
    if (given === undefined) return current
    if (given === null) return null
    const trimmed = laravelTrim(given)
    if (trimmed === "") return null
    return canonical(trimmed) ?? current
  }
  const check = (field: string, max: number, read: (text: string) => string | undefined, message: string) =>
    (text: string): string | undefined => {
      if (text.length > max) return fail(field, LaravelMessageMore.maxString(field, max))
      return read(text) ?? fail(field, message)
    }
  const https = (field: string) => (text: string): string | undefined => {
    const verdict = isHttpsUrl(text)
    if (verdict === "not-a-url" || text.length > URL_MAX) return fail(field, LaravelMessageMore.url(field))
    return verdict ? text : fail(field, SettingsMessage.https(field))
  }
  const plain = (field: string, max: number) => (text: string): string | undefined =>
    text.length > max ? fail(field, LaravelMessageMore.maxString(field, max)) : text
  const timeZone = (field: string) => check(field, TEXT_MAX, canonicalTimeZone, SettingsMessage.timeZone(field))
  const calendar = (field: string) => check(field, TEXT_MAX, canonicalCalendar, LaravelMessage.selectedInvalid(field))
  const locale = (field: string) => check(field, TEXT_MAX, canonicalLanguageTag, SettingsMessage.locale(field))
  const currency = (field: string) => check(field, TEXT_MAX, canonicalCurrency, SettingsMessage.currency(field))
  const failure = () => Object.keys(errors).length > 0 ? Option.some(new ValidationFailed({ errors })) : Option.none()
  return { fail, value, https, plain, timeZone, calendar, locale, currency, failure }
}

/** The account's settings with the changes applied, or every field's messages. */
const applyAccountChanges = (account: Account, changes: AccountSettingsChanges) =>
  Effect.gen(function*() {
    const f = fieldChecker()
    let name = account.name
    if (changes.name !== undefined) {
      const named = yield* Effect.result(accountName(changes.name))
      if (named._tag === "Success") name = named.success
      else for (const message of named.failure.errors["name"] ?? []) f.fail("name", message)
    }
    const settings: AccountSettings = {
      name,
      industry: f.value(changes.industry, account.industry, f.plain("industry", TEXT_MAX)),
      logo: f.value(changes.logo, account.logo, f.https("logo")),
      address: f.value(changes.address, account.address, f.plain("address", ADDRESS_MAX)),
      timeZone: f.value(changes.timeZone, account.timeZone, f.timeZone("timeZone")),
      calendar: f.value(changes.calendar, account.calendar, f.calendar("calendar")),
      hour12: changes.hour12 === undefined ? account.hour12 : changes.hour12,
      locale: f.value(changes.locale, account.locale, f.locale("locale")),
      currency: f.value(changes.currency, account.currency, f.currency("currency"))
    }
    const failure = f.failure()
    if (Option.isSome(failure)) return yield* failure.value
    return settings
  })

/** The member's settings with the changes applied, or every field's messages. */
const applyPreferenceChanges = (membership: Membership, changes: MemberPreferencesChanges) =>
  Effect.gen(function*() {
    const f = fieldChecker()
    let timeZone = membership.timeZone
    if (changes.timeZone !== undefined) {
      const given = laravelTrim(changes.timeZone)
      if (given === "") f.fail("timeZone", LaravelMessage.required("timeZone"))
      else timeZone = f.timeZone("timeZone")(given) ?? timeZone
    }
    const preferences: MemberPreferences = {
      timeZone,
      calendar: f.value(changes.calendar, membership.calendar, f.calendar("calendar")),
      hour12: changes.hour12 ?? membership.hour12,
      locale: f.value(changes.locale, membership.locale, f.locale("locale")),
      currency: f.value(changes.currency, membership.currency, f.currency("currency"))
    }
    const failure = f.failure()
    if (Option.isSome(failure)) return yield* failure.value
    return preferences
  })

/**
 * Changes the current account's settings: name (trimmed, not empty), industry, logo (an https
 * URL), address, timeZone (an IANA zone name), calendar (a Unicode calendar such as `gregory` or
 * `islamic-umalqura`), hour12, locale (a BCP 47 tag) and currency (an ISO 4217 code), each kept
 * in its canonical form; a field left out keeps its value, null (or an empty text) clears it.
 * Needs `account-manage` (else {@link Forbidden}); fails {@link ValidationFailed} with every
 * field's message. Answers the user as `GET /api/me` then shows it.
 */
export const updateAccountSettings: (
  principal: Principal,
  changes: AccountSettingsChanges
) => Effect.Effect<
  CurrentUser,
  Forbidden | NotFound | ValidationFailed | Unauthenticated,
  AccountRepository | CurrentUserReader | MessageAllowanceLedger
> = Effect.fn("updateAccountSettings")(function*(principal: Principal, changes: AccountSettingsChanges) {
  yield* authorize(principal, "account-manage")
  const accounts = yield* AccountRepository
  const account = yield* accounts.findById(principal.accountId)
  if (Option.isNone(account)) return yield* new Unauthenticated()
  yield* accounts.setSettings(principal.accountId, yield* applyAccountChanges(account.value, changes))
  return yield* currentUser(principal)
})

/**
 * Changes the caller's own settings in the current account (account.pivot): timeZone (an IANA
 * zone name, never empty), calendar, hour12, locale and currency (null: the account's), each
 * validated as the account's are. Any member, for itself; fails {@link ValidationFailed} with
 * every field's message. Answers the user as `GET /api/me` then shows it.
 */
export const updateMemberPreferences: (
  principal: Pick<Principal, "accountId" | "userId">,
  changes: MemberPreferencesChanges
) => Effect.Effect<
  CurrentUser,
  ValidationFailed | Unauthenticated,
  CurrentUserReader | MessageAllowanceLedger | UserRepository
> = Effect.fn(
  "updateMemberPreferences"
)(function*(principal: Pick<Principal, "accountId" | "userId">, changes: MemberPreferencesChanges) {
  const users = yield* UserRepository
  const membership = yield* users.findMembership(principal.accountId, principal.userId)
  if (Option.isNone(membership)) return yield* new Unauthenticated()
  const preferences = yield* applyPreferenceChanges(membership.value, changes)
  yield* users.setMemberPreferences(principal.accountId, principal.userId, preferences)
  return yield* currentUser(principal)
})
