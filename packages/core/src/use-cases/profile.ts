/** The calling user's own profile and password. */
import { Effect, Option } from "effect"
import type { CurrentUser } from "../account/current-user.ts"
import type { CurrentUserReader } from "../account/current-user-reader.ts"
import { type Profile, UserRepository } from "../account/user-repository.ts"
import { PasswordHasher } from "../auth/password-hasher.ts"
import type { Principal } from "../auth/principal.ts"
import { SessionRepository } from "../auth/session-repository.ts"
import { TwoFactorLoginRepository } from "../auth/two-factor-login-repository.ts"
import { Unauthenticated, ValidationFailed, invalid } from "../errors.ts"
import { laravelTrim } from "../validation/laravel-trim.ts"
import { LaravelMessageMore } from "../validation/more-validation-messages.ts"
import { canonicalLanguageTag, isHttpsUrl } from "../validation/settings-values.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { VIEW_CHOICE_KEYS, VIEW_CHOICE_KINDS, type ViewChoiceKind } from "../account/chosen-views.ts"
import { SavedViewRepository } from "../records/saved-view-repository.ts"
import { Transactor } from "../transactor.ts"
import { currentUser } from "./current-user.ts"
import { findVisibleView } from "./saved-views.ts"

const NAME_MAX = 255
const LOCALE_MAX = 35
const IMAGE_MAX = 2048
/** The shortest password accepted: 8 characters. */
export const PASSWORD_MIN_LENGTH = 8
const PASSWORD_MAX = 1024

/** What `PUT /api/me` may change; a field left out keeps its value. */
export interface ProfileChanges {
  /** The first name. */
  readonly firstname?: string
  /** The last name. */
  readonly lastname?: string
  /** A BCP 47 language tag. */
  readonly locale?: string
  /** An https URL, or null to remove the picture. */
  readonly image?: string | null
  /** The contacts view the console opens on in the current account (a view the user sees), or null for none. */
  readonly contacts_view_id?: string | null
  /** The deals view, as `contacts_view_id`. */
  readonly deals_view_id?: string | null
  /** The tickets view, as `contacts_view_id`. */
  readonly tickets_view_id?: string | null
}

/**
 * The chosen views the changes name, each checked to be a view of its kind the user sees in the
 * account (else a message on its key); null clears a choice.
 */
const viewChoices = (principal: Pick<Principal, "accountId" | "userId">, changes: ProfileChanges) =>
  Effect.gen(function*() {
    const errors: Record<string, Array<string>> = {}
    const choices: Array<readonly [ViewChoiceKind, string | null]> = []
    for (const kind of VIEW_CHOICE_KINDS) {
      const key = VIEW_CHOICE_KEYS[kind]
      const id = changes[key]
      if (id === undefined) continue
      if (id === null) {
        choices.push([kind, null])
        continue
      }
      const view = yield* findVisibleView(principal.accountId, principal.userId, kind, laravelTrim(id))
      if (Option.isNone(view)) errors[key] = [LaravelMessage.selectedInvalid(key)]
      else choices.push([kind, view.value._id])
    }
    return { errors, choices }
  })

/** Every field's messages (an empty record when all are valid), and the profile with the changes applied. */
const applyChanges = (current: Profile, changes: ProfileChanges) => {
  const errors: Record<string, Array<string>> = {}
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message)
  const name = (field: "firstname" | "lastname") => {
    const value = changes[field]
    if (value === undefined) return current[field]
    const trimmed = laravelTrim(value)
    if (trimmed === "") fail(field, LaravelMessage.required(field))
    else if (trimmed.length > NAME_MAX) fail(field, LaravelMessageMore.maxString(field, NAME_MAX))
    return trimmed
  }
  const firstname = name("firstname")
  const lastname = name("lastname")
  let locale = current.locale
  if (changes.locale !== undefined) {
    const trimmed = laravelTrim(changes.locale)
    const canonical = trimmed.length > LOCALE_MAX ? undefined : canonicalLanguageTag(trimmed)
    if (canonical === undefined) fail("locale", "The locale field must be a BCP 47 language tag.")
    else locale = canonical
  }
  let image = current.image
  if (changes.image !== undefined) {
    image = changes.image === null ? null : laravelTrim(changes.image)
    if (image === "") image = null
    if (image !== null) {
      const https = isHttpsUrl(image)
      if (https === "not-a-url" || image.length > IMAGE_MAX) fail("image", LaravelMessageMore.url("image"))
      else if (!https) fail("image", "The image field must start with one of the following: https://.")
    }
  }
  return { errors, profile: { firstname, lastname, locale, image } }
}

/**
 * Changes the caller's profile: first and last name (trimmed, not empty, at most 255
 * characters), locale (a BCP 47 tag, stored in its canonical form) and image (an https URL, or
 * null to remove it), and the views the console opens on in the current account
 * (`contacts_view_id`, `deals_view_id`, `tickets_view_id`: a view of that kind the user sees, or
 * null); a field left out keeps its value. Answers the user as `GET /api/me` shows it. Fails
 * {@link ValidationFailed} with every field's message.
 */
export const updateProfile: (
  principal: Pick<Principal, "accountId" | "userId">,
  changes: ProfileChanges
) => Effect.Effect<
  CurrentUser,
  ValidationFailed | Unauthenticated,
  CurrentUserReader | SavedViewRepository | Transactor | UserRepository
> = Effect.fn(
  "updateProfile"
)(function*(principal: Pick<Principal, "accountId" | "userId">, changes: ProfileChanges) {
  const users = yield* UserRepository
  const user = yield* users.findById(principal.userId)
  if (Option.isNone(user)) return yield* new Unauthenticated()
  const { errors, profile } = applyChanges(user.value, changes)
  const views = yield* viewChoices(principal, changes)
  Object.assign(errors, views.errors)
  if (Object.keys(errors).length > 0) return yield* new ValidationFailed({ errors })
  yield* (yield* Transactor).transaction(Effect.gen(function*() {
    yield* users.setProfile(principal.userId, profile)
    for (const [kind, id] of views.choices) {
      yield* SavedViewRepository.use((repo) => repo.choose(principal.accountId, principal.userId, kind, id))
    }
  }))
  return yield* currentUser(principal)
})

/**
 * Changes the caller's password, given the current one (a wrong one fails {@link ValidationFailed}
 * on `current_password`; a new one under {@link PASSWORD_MIN_LENGTH} characters on `password`).
 * Every other session of the user ends, in every account; the caller's own, when it is one, stays.
 * Every login of the user waiting for its second factor ends too (its password was the old one).
 */
export const changePassword: (
  principal: Pick<Principal, "userId" | "sessionId">,
  currentPassword: string,
  password: string
) => Effect.Effect<
  void,
  ValidationFailed,
  PasswordHasher | SessionRepository | TwoFactorLoginRepository | UserRepository
> = Effect.fn(
  "changePassword"
)(function*(principal: Pick<Principal, "userId" | "sessionId">, currentPassword: string, password: string) {
  const users = yield* UserRepository
  const hasher = yield* PasswordHasher
  const stored = yield* users.findPasswordHash(principal.userId)
  if (Option.isNone(stored) || !(yield* hasher.verify(currentPassword, stored.value))) {
    return yield* invalid("current_password", "The password is incorrect.")
  }
  if (password.length < PASSWORD_MIN_LENGTH) {
    return yield* invalid("password", `The password field must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  }
  if (password.length > PASSWORD_MAX) return yield* invalid("password", LaravelMessageMore.maxString("password", PASSWORD_MAX))
  yield* users.setPasswordHash(principal.userId, yield* hasher.hash(password))
  yield* (yield* SessionRepository).removeOthersOfUser(principal.userId, principal.sessionId)
  yield* (yield* TwoFactorLoginRepository).removeOfUser(principal.userId)
})
