/**
 * The contract of a user's several accounts and their settings: listing the caller's accounts,
 * moving a session to another one, opening a new account, the account's settings, the caller's
 * own settings in it, and asking to change or verify the caller's e-mail (the `accounts` group);
 * and following the links those mails carry (the `emailLinks` group, which needs no sign-in:
 * the link's token is the proof).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AccountId, CurrentUser, MemberAccount, User } from "@wasl/core/Accounts"
import {
  type AuthenticatedGroup,
  type DataAnswer,
  DataAnswer as dataAnswer,
  type DataMessageAnswer,
  DataMessageAnswer as dataMessageAnswer,
  type WaslEndpoint
} from "./endpoint-types.ts"
import { Forbidden403, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import { ServiceUnavailable503WithRetryAfter } from "./retry-after.ts"
import { Authentication } from "./security.ts"

// Bounded so a long body costs nothing; the use-cases check the real limits with their messages.
const Text: Schema.String = Schema.String.check(Schema.isMaxLength(4096))
const NullableText = Schema.NullOr(Text)

/** The body of `POST /api/accounts`: the new account's name. */
export const CreateAccountPayload: Schema.Struct<{ readonly name: Schema.String }> = Schema.Struct({ name: Text })

/** The body of `PUT /api/me/current-account`: the account to move the session to. */
export const SwitchAccountPayload: Schema.Struct<{ readonly account_id: Schema.Int }> = Schema.Struct({ account_id: AccountId })

/** The body of `PUT /api/account`: the settings to change (each optional; null clears it, but the name). */
export const AccountSettingsPayload: Schema.Struct<{
  readonly name: Schema.optionalKey<Schema.String>
  readonly industry: Schema.optionalKey<Schema.NullOr<Schema.String>>
  readonly logo: Schema.optionalKey<Schema.NullOr<Schema.String>>
  readonly address: Schema.optionalKey<Schema.NullOr<Schema.String>>
  readonly timeZone: Schema.optionalKey<Schema.NullOr<Schema.String>>
  readonly calendar: Schema.optionalKey<Schema.NullOr<Schema.String>>
  readonly hour12: Schema.optionalKey<Schema.NullOr<Schema.Boolean>>
  readonly locale: Schema.optionalKey<Schema.NullOr<Schema.String>>
  readonly currency: Schema.optionalKey<Schema.NullOr<Schema.String>>
}> = Schema.Struct({
  name: Schema.optionalKey(Text),
  industry: Schema.optionalKey(NullableText),
  logo: Schema.optionalKey(NullableText),
  address: Schema.optionalKey(NullableText),
  timeZone: Schema.optionalKey(NullableText),
  calendar: Schema.optionalKey(NullableText),
  hour12: Schema.optionalKey(Schema.NullOr(Schema.Boolean)),
  locale: Schema.optionalKey(NullableText),
  currency: Schema.optionalKey(NullableText)
})

/** The body of `PUT /api/me/preferences`: the caller's own settings in the account (each optional). */
export const MemberPreferencesPayload: Schema.Struct<{
  readonly timeZone: Schema.optionalKey<Schema.String>
  readonly calendar: Schema.optionalKey<Schema.NullOr<Schema.String>>
  readonly hour12: Schema.optionalKey<Schema.Boolean>
  readonly locale: Schema.optionalKey<Schema.NullOr<Schema.String>>
  readonly currency: Schema.optionalKey<Schema.NullOr<Schema.String>>
}> = Schema.Struct({
  timeZone: Schema.optionalKey(Text),
  calendar: Schema.optionalKey(NullableText),
  hour12: Schema.optionalKey(Schema.Boolean),
  locale: Schema.optionalKey(NullableText),
  currency: Schema.optionalKey(NullableText)
})

/** The body of `PUT /api/me/email`: the new address, and the current password (a session must give it). */
export const ChangeEmailPayload: Schema.Struct<{
  readonly email: Schema.String
  readonly password: Schema.optionalKey<Schema.String>
}> = Schema.Struct({ email: Text, password: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1024))) })

/** The body of the e-mail links' endpoints: the token the link carries. */
export const EmailLinkPayload: Schema.Struct<{ readonly token: Schema.String }> = Schema.Struct({
  token: Schema.String.check(Schema.isMaxLength(256))
})

/** What `POST /api/me/email/verify` answers: what became of the request. */
export const MessageAnswer: Schema.Struct<{ readonly message: Schema.String }> = Schema.Struct({ message: Schema.String })

/** `GET /api/me/accounts`: the caller's accounts, each with the caller's membership. */
export const ListMyAccountsEndpoint: WaslEndpoint<"listMine", "GET", "/me/accounts", {
  success: DataAnswer<Schema.$Array<typeof MemberAccount>>; error: typeof Unauthenticated401
}> = HttpApiEndpoint.get("listMine", "/me/accounts", {
  success: dataAnswer(Schema.Array(MemberAccount)),
  error: [Unauthenticated401]
}).annotate(OpenApi.Summary, "List your accounts").annotate(
  OpenApi.Description,
  "The accounts the caller is an active member of, most recently used first, each with the caller's membership (pivot: status, " +
    "last_used and the caller's own time zone, calendar, clock, locale and currency there)."
)

/** `PUT /api/me/current-account`: moves the caller's session to another of its accounts. */
export const SwitchAccountEndpoint: WaslEndpoint<"switch", "PUT", "/me/current-account", {
  payload: typeof SwitchAccountPayload; success: DataMessageAnswer<typeof CurrentUser>
  error: typeof Unauthenticated401 | typeof Forbidden403 | typeof NotFound404 | typeof Validation422
}> = HttpApiEndpoint.put("switch", "/me/current-account", {
  payload: SwitchAccountPayload,
  success: dataMessageAnswer(CurrentUser),
  error: [Unauthenticated401, Forbidden403, NotFound404, Validation422]
}).annotate(OpenApi.Summary, "Switch the session's account").annotate(
  OpenApi.Description,
  "Moves the first-party session to another account the user is an active member of; every later request of the session acts " +
    "there (lists show that account's records only). Answers the user as GET /api/me then shows it. An account the user is not an " +
    "active member of is 404, like one that does not exist. An API token cannot switch (403): it stays in the account it was made in."
)

/** `POST /api/accounts`: opens a new account owned by the caller. */
export const CreateAccountEndpoint: WaslEndpoint<"create", "POST", "/accounts", {
  payload: typeof CreateAccountPayload; success: DataMessageAnswer<typeof MemberAccount>
  error: typeof Unauthenticated401 | typeof Forbidden403 | typeof Validation422
}> = HttpApiEndpoint.post("create", "/accounts", {
  payload: CreateAccountPayload,
  success: dataMessageAnswer(MemberAccount).pipe(HttpApiSchema.status(201)),
  error: [Unauthenticated401, Forbidden403, Validation422]
}).annotate(OpenApi.Summary, "Open a new account").annotate(
  OpenApi.Description,
  "Opens an account on the free plan, made as every account is: its subscription, and the Administrators team holding every " +
    "permission with the caller as its first administrator and only member. Needs a session and no permission (an API token: 403). " +
    "The session stays in its account; PUT /api/me/current-account moves it. 201."
)

/** `PUT /api/account`: changes the current account's settings. */
export const UpdateAccountEndpoint: WaslEndpoint<"update", "PUT", "/account", {
  payload: typeof AccountSettingsPayload; success: DataMessageAnswer<typeof CurrentUser>
  error: typeof Unauthenticated401 | typeof Forbidden403 | typeof Validation422
}> = HttpApiEndpoint.put("update", "/account", {
  payload: AccountSettingsPayload,
  success: dataMessageAnswer(CurrentUser),
  error: [Unauthenticated401, Forbidden403, Validation422]
}).annotate(OpenApi.Summary, "Change the account's settings").annotate(
  OpenApi.Description,
  "Changes the current account's name (not empty), industry, logo (an https URL), address, timeZone (an IANA zone such as " +
    "Asia/Riyadh), calendar (gregory, islamic-umalqura, …), hour12, locale (a BCP 47 tag) and currency (an ISO 4217 code), each kept " +
    "in its canonical form; a field left out keeps its value, null clears it. Answers the user as GET /api/me then shows it. " +
    "Permission account-manage."
)

/** `PUT /api/me/preferences`: changes the caller's own settings in the current account. */
export const UpdatePreferencesEndpoint: WaslEndpoint<"preferences", "PUT", "/me/preferences", {
  payload: typeof MemberPreferencesPayload; success: DataMessageAnswer<typeof CurrentUser>
  error: typeof Unauthenticated401 | typeof Forbidden403 | typeof Validation422
}> = HttpApiEndpoint.put("preferences", "/me/preferences", {
  payload: MemberPreferencesPayload,
  success: dataMessageAnswer(CurrentUser),
  error: [Unauthenticated401, Forbidden403, Validation422]
}).annotate(OpenApi.Summary, "Change your settings in the account").annotate(
  OpenApi.Description,
  "Changes the caller's own time zone (an IANA zone, never empty), calendar, hour12, locale and currency in the current account " +
    "(account.pivot; null: the account's), validated as the account's are. Answers the user as GET /api/me then shows it."
)

/** `PUT /api/me/email`: asks to change the caller's login e-mail; a link goes to the new address. */
export const ChangeEmailEndpoint: WaslEndpoint<"changeEmail", "PUT", "/me/email", {
  payload: typeof ChangeEmailPayload; success: DataMessageAnswer<typeof User>
  error: typeof Unauthenticated401 | typeof Forbidden403 | typeof Validation422 | typeof ServiceUnavailable503WithRetryAfter
}> = HttpApiEndpoint.put("changeEmail", "/me/email", {
  payload: ChangeEmailPayload,
  success: dataMessageAnswer(User),
  error: [Unauthenticated401, Forbidden403, Validation422, ServiceUnavailable503WithRetryAfter]
}).annotate(OpenApi.Summary, "Change your e-mail").annotate(
  OpenApi.Description,
  "Sets change_email_to and mails the new address a single-use link valid 24 hours (an earlier link stops working); the login e-mail " +
    "changes when the link is followed (POST /api/me/email/confirm). A session must send the current password; a token may. 422 on " +
    "email for an invalid address, the current one or another user's; 503 when the mail cannot be sent. Answers the user."
)

/** `POST /api/me/email/verify`: mails the caller a link to verify the current e-mail. */
export const SendEmailVerificationEndpoint: WaslEndpoint<"sendVerification", "POST", "/me/email/verify", {
  success: typeof MessageAnswer
  error: typeof Unauthenticated401 | typeof Forbidden403 | typeof ServiceUnavailable503WithRetryAfter
}> = HttpApiEndpoint.post("sendVerification", "/me/email/verify", {
  success: MessageAnswer,
  error: [Unauthenticated401, Forbidden403, ServiceUnavailable503WithRetryAfter]
}).annotate(OpenApi.Summary, "Verify your e-mail").annotate(
  OpenApi.Description,
  "Mails the caller's e-mail a single-use link valid 7 days (an earlier one stops working) that sets email_verified_at when followed " +
    "(POST /api/me/email/verify/confirm). An e-mail already verified is not mailed: the message says so."
)

/** `POST /api/me/email/confirm`: follows a change link; the login e-mail becomes the new address. */
export const ConfirmEmailChangeEndpoint: WaslEndpoint<"confirmChange", "POST", "/me/email/confirm", {
  payload: typeof EmailLinkPayload; success: DataMessageAnswer<typeof User>; error: typeof Validation422
}> = HttpApiEndpoint.post("confirmChange", "/me/email/confirm", {
  payload: EmailLinkPayload,
  success: dataMessageAnswer(User),
  error: [Validation422]
}).annotate(OpenApi.Summary, "Confirm a new e-mail").annotate(
  OpenApi.Description,
  "Takes the token of the link PUT /api/me/email mailed (the dashboard's /email/confirm?token=… page sends it) and makes the new " +
    "address the login e-mail, verified. No sign-in needed: the token is the proof. 422 on token for an unknown, used, superseded or " +
    "expired link; on email when another user took the address meanwhile."
)

/** `POST /api/me/email/verify/confirm`: follows a verification link. */
export const ConfirmEmailVerificationEndpoint: WaslEndpoint<"confirmVerification", "POST", "/me/email/verify/confirm", {
  payload: typeof EmailLinkPayload; success: DataMessageAnswer<typeof User>; error: typeof Validation422
}> = HttpApiEndpoint.post("confirmVerification", "/me/email/verify/confirm", {
  payload: EmailLinkPayload,
  success: dataMessageAnswer(User),
  error: [Validation422]
}).annotate(OpenApi.Summary, "Confirm your e-mail").annotate(
  OpenApi.Description,
  "Takes the token of a verification link (the dashboard's /email/verify?token=… page sends it) and sets the user's " +
    "email_verified_at. No sign-in needed: the token is the proof. 422 on token for an unknown, used, superseded or expired link, or " +
    "one sent to an address the user no longer has."
)

const AccountsGroupBase: AuthenticatedGroup<
  "accounts",
  | typeof ListMyAccountsEndpoint
  | typeof SwitchAccountEndpoint
  | typeof CreateAccountEndpoint
  | typeof UpdateAccountEndpoint
  | typeof UpdatePreferencesEndpoint
  | typeof ChangeEmailEndpoint
  | typeof SendEmailVerificationEndpoint
> = HttpApiGroup.make("accounts")
  .add(ListMyAccountsEndpoint)
  .add(SwitchAccountEndpoint)
  .add(CreateAccountEndpoint)
  .add(UpdateAccountEndpoint)
  .add(UpdatePreferencesEndpoint)
  .add(ChangeEmailEndpoint)
  .add(SendEmailVerificationEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "A user's several accounts and their settings: the caller's accounts, switching a session between them, opening a new one, the " +
      "account's settings, the caller's own settings in it, and changing or verifying the caller's e-mail."
  )

/** A user's accounts and settings: list, switch, open, settings, preferences, e-mail change and verification. */
export class AccountsGroup extends AccountsGroupBase {}

const EmailLinksGroupBase: HttpApiGroup.AddPrefix<
  HttpApiGroup.HttpApiGroup<"emailLinks", typeof ConfirmEmailChangeEndpoint | typeof ConfirmEmailVerificationEndpoint>,
  "/api"
> = HttpApiGroup.make("emailLinks")
  .add(ConfirmEmailChangeEndpoint)
  .add(ConfirmEmailVerificationEndpoint)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "Following the single-use links mailed to change or verify an e-mail. No sign-in: the link's token is the proof, and it works once."
  )

/** The e-mail links' endpoints, which need no sign-in. */
export class EmailLinksGroup extends EmailLinksGroupBase {}
