/**
 * The HTTP contract: every endpoint with its payload, success and error
 * schemas. Handlers live in handlers/; OpenAPI is generated from this.
 *
 * Each endpoint is a const with its type written out (`WaslEndpoint`, which states only what is the
 * endpoint's own), and each group's type is built from those (`AuthenticatedGroup`), as the chained
 * calls build the value: the published declarations stay readable and the typed client
 * (`HttpApiClient.ForApi<typeof WaslApi>`) as precise as the inferred types were.
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { CurrentUser } from "@wasl/core/Accounts"
import { ABILITIES, Ability, ApiToken } from "@wasl/core/Auth"
import { Forbidden403, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import { DeletedAnswer } from "./deleted-answer.ts"
import { documentIdempotencyKeys } from "./idempotency-openapi.ts"
import { documentPermissions } from "./permission-openapi.ts"
import { declareFreeFormObjects } from "./free-form-objects-openapi.ts"
import { describeRecordBodies } from "./record-bodies-openapi.ts"
import { exemplifyErrors } from "./error-examples-openapi.ts"
import { API_INTRODUCTION } from "./api-introduction.ts"
import { withRequestExamples } from "./request-examples-openapi.ts"
import { PAGE_PARAMETERS, withQueryParameters } from "./list-query-openapi.ts"
import { Pagination } from "./list-request.ts"
import { declareRateLimitHeaders } from "./rate-limit.ts"
import { TooManyRequests429WithRetryAfter } from "./retry-after.ts"
import { type AuthenticatedGroup, DataAnswer, type PathParams, type WaslEndpoint } from "./endpoint-types.ts"
import { NotesGroup } from "./notes-api.ts"
import { HistoryGroup } from "./history-api.ts"
import { PipelinesGroup } from "./pipelines-api.ts"
import { ViewsGroup } from "./views-api.ts"
import { PropertiesGroup } from "./properties-api.ts"
import { MessagingGroup } from "./messaging-api.ts"
import { PlatformsGroup } from "./platforms-api.ts"
import { ConversationsGroup } from "./conversations-api.ts"
import { OtpGroup } from "./otp-api.ts"
import { RecordLinksGroup } from "./record-links-api.ts"
import { TrashGroup } from "./trash-api.ts"
import { MergesGroup } from "./merge-api.ts"
import { RecordsGroup } from "./records-api.ts"
import { ExportsGroup } from "./exports-api.ts"
import { ImportsGroup } from "./imports-api.ts"
import { Authentication } from "./security.ts"
import { WebhooksGroup } from "./webhooks-api.ts"
import { CampaignsGroup } from "./campaigns-api.ts"
import { DeliveriesGroup } from "./deliveries-api.ts"
import { NotificationsGroup } from "./notifications-api.ts"
import { HealthGroup } from "./health-api.ts"
import { WhatsAppGroup } from "./whatsapp-api.ts"
import {
  BeginTwoFactorEndpoint,
  ConfirmTwoFactorEndpoint,
  DisableTwoFactorEndpoint,
  TwoFactorLoginEndpoint,
  TwoFactorRequiredAnswer
} from "./two-factor-api.ts"
import { ChangePasswordEndpoint, UpdateProfileEndpoint } from "./profile-api.ts"
import { AccountsGroup, EmailLinksGroup } from "./accounts-api.ts"
import { InvitationsGroup, MembersGroup } from "./members-api.ts"
import { TeamsGroup } from "./teams-api.ts"

/** `GET /api/me`: the calling user, its current account, teams and preferences. */
export const ShowMeEndpoint: WaslEndpoint<"show", "GET", "/me", {
  success: typeof CurrentUser; error: typeof Unauthenticated401
}> = HttpApiEndpoint.get("show", "/me", {
  success: CurrentUser,
  error: [Unauthenticated401]
}).annotate(OpenApi.Summary, "Show the current user").annotate(
  OpenApi.Description,
  "The calling user with the account the request acts in (its plan and OTP credits), the user's teams and notification preferences: the user object itself, without a data wrapper."
)

const MeGroupBase: AuthenticatedGroup<
  "me",
  | typeof ShowMeEndpoint
  | typeof UpdateProfileEndpoint
  | typeof ChangePasswordEndpoint
  | typeof BeginTwoFactorEndpoint
  | typeof ConfirmTwoFactorEndpoint
  | typeof DisableTwoFactorEndpoint
> = HttpApiGroup.make("me")
  .add(ShowMeEndpoint)
  .add(UpdateProfileEndpoint)
  .add(ChangePasswordEndpoint)
  .add(BeginTwoFactorEndpoint)
  .add(ConfirmTwoFactorEndpoint)
  .add(DisableTwoFactorEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "The caller: the signed-in user, the account the request acts in, its teams and preferences, its profile and password, and its two-factor authentication."
  )

/** The current user: `GET /api/me`, its profile, password and two-factor authentication. */
export class MeGroup extends MeGroupBase {}

/** The body of `POST /api/auth/login`: the user's email and password. */
export const LoginPayload: Schema.Struct<{ readonly email: Schema.String; readonly password: Schema.String }> = Schema
  .Struct({
    email: Schema.String.check(Schema.isMaxLength(255)),
    password: Schema.String.check(Schema.isMaxLength(1024))
  })

/** What `POST /api/auth/login` answers: the user with a session, or, with two-factor on, that the second step is due. */
export const LoginAnswer: Schema.Union<readonly [DataAnswer<typeof CurrentUser>, typeof TwoFactorRequiredAnswer]> = Schema.Union([
  DataAnswer(CurrentUser),
  TwoFactorRequiredAnswer
])

/**
 * `POST /api/auth/login`: opens a first-party session (the `wasl_session` cookie) and answers the
 * user; with two-factor on, answers `{ two_factor: true }` and the pending login's cookie instead.
 */
export const LoginEndpoint: WaslEndpoint<"login", "POST", "/auth/login", {
  payload: typeof LoginPayload; success: typeof LoginAnswer
  error: typeof Validation422 | typeof TooManyRequests429WithRetryAfter
}> = HttpApiEndpoint.post("login", "/auth/login", {
  payload: LoginPayload,
  success: LoginAnswer,
  error: [Validation422, TooManyRequests429WithRetryAfter]
}).annotate(OpenApi.Summary, "Log in (session cookie)").annotate(
  OpenApi.Description,
  "Opens a first-party session: sets the HttpOnly wasl_session cookie. For a user with two-factor on, it opens no session: it answers " +
    "{ two_factor: true } and sets the HttpOnly wasl_two_factor cookie, which POST /api/auth/two-factor completes within 5 minutes. " +
    "Attempts are limited per email address and per client address, right or wrong (429 when over)."
)

/** `POST /api/auth/logout`: ends the first-party session and expires its cookie (204). */
export const LogoutEndpoint: WaslEndpoint<"logout", "POST", "/auth/logout", {
  success: HttpApiSchema.NoContent; error: typeof Unauthenticated401 | typeof Forbidden403; middleware: Authentication
}> = HttpApiEndpoint.post("logout", "/auth/logout", {
  success: HttpApiSchema.NoContent,
  error: [Unauthenticated401, Forbidden403]
}).middleware(Authentication).annotate(OpenApi.Summary, "Log out").annotate(
  OpenApi.Description,
  "Ends the first-party session and expires the wasl_session cookie (204). With an API token it only answers 204: revoke a token with DELETE /api/tokens/{id}."
)

const AuthGroupBase: HttpApiGroup.AddPrefix<
  HttpApiGroup.HttpApiGroup<"auth", typeof LoginEndpoint | typeof TwoFactorLoginEndpoint | typeof LogoutEndpoint>,
  "/api"
> = HttpApiGroup.make("auth")
  .add(LoginEndpoint)
  .add(TwoFactorLoginEndpoint)
  .add(LogoutEndpoint)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "First-party sessions for Wasl's own web app: log in with email and password (an HttpOnly session cookie), with a second factor when the user has two-factor on, and log out. Integrations authenticate with API tokens instead."
  )

/** First-party sessions: login and its second factor (no authentication needed), and logout. */
export class AuthGroup extends AuthGroupBase {}

/**
 * The body of `POST /api/tokens`: the token's name and its abilities (permission names, or `*` for
 * all): at least one, and no more than there are abilities (a repeated one is kept once).
 */
export const CreateTokenPayload: Schema.Struct<{
  readonly name: Schema.String
  readonly abilities: Schema.$Array<typeof Ability>
}> = Schema.Struct({
  name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255)),
  abilities: Schema.Array(Ability).check(Schema.isMinLength(1), Schema.isMaxLength(ABILITIES.length))
})

/** A token id in a path: a positive integer (anything else is 404). */
export const TokenIdParam: Schema.FiniteFromString = Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThan(0))

/** `GET /api/tokens`: the caller's API tokens in the current account, paginated. */
export const ListTokensEndpoint: WaslEndpoint<"list", "GET", "/tokens", {
  success: Pagination<typeof ApiToken>; error: typeof Unauthenticated401 | typeof Forbidden403 | typeof Validation422
}> = HttpApiEndpoint.get("list", "/tokens", {
  success: Pagination(ApiToken),
  error: [Unauthenticated401, Forbidden403, Validation422]
}).annotate(OpenApi.Summary, "List your API tokens").annotate(
  OpenApi.Description,
  "The caller's API tokens in the current account, by id, one page at a time: name, abilities, last use (never the secret). Permission token-manage."
).annotate(OpenApi.Transform, withQueryParameters(PAGE_PARAMETERS))

/** `POST /api/tokens`: issues an API token for the caller; the plain text is answered this once. */
export const CreateTokenEndpoint: WaslEndpoint<"create", "POST", "/tokens", {
  payload: typeof CreateTokenPayload; success: Schema.Struct<{ readonly data: typeof ApiToken; readonly token: Schema.String }>
  error: typeof Unauthenticated401 | typeof Forbidden403 | typeof Validation422
}> = HttpApiEndpoint.post("create", "/tokens", {
  payload: CreateTokenPayload,
  success: Schema.Struct({ data: ApiToken, token: Schema.String }).pipe(HttpApiSchema.status(201)),
  error: [Unauthenticated401, Forbidden403, Validation422]
}).annotate(OpenApi.Summary, "Create an API token").annotate(
  OpenApi.Description,
  "Issues an API token for the caller in the current account with the abilities given (permission names, or * for all; " +
    "each kept once, in the order given, so no more are taken than there are abilities). " +
    "The plain-text token, <id>|<secret>, is in `token` and shown this once: only its hash is kept. Permission token-manage."
).annotate(
  OpenApi.Transform,
  withRequestExamples({
    readDeals: { summary: "A token that reads deals", value: { name: "reporting", abilities: ["deal-index", "deal-show"] } }
  })
)

/** `DELETE /api/tokens/:id`: revokes one of the caller's API tokens. */
export const RevokeTokenEndpoint: WaslEndpoint<"revoke", "DELETE", "/tokens/:id", {
  params: PathParams<{ id: typeof TokenIdParam }>; success: typeof DeletedAnswer
  error: typeof Unauthenticated401 | typeof Forbidden403 | typeof NotFound404
}> = HttpApiEndpoint.delete("revoke", "/tokens/:id", {
  params: { id: TokenIdParam },
  success: DeletedAnswer,
  error: [Unauthenticated401, Forbidden403, NotFound404]
}).annotate(OpenApi.Summary, "Revoke an API token").annotate(
  OpenApi.Description,
  "Revokes one of the caller's API tokens: it stops authenticating at once. Another user's token, or an unknown id, is 404. Permission token-manage."
)

const TokensGroupBase: AuthenticatedGroup<
  "tokens",
  typeof ListTokensEndpoint | typeof CreateTokenEndpoint | typeof RevokeTokenEndpoint
> = HttpApiGroup.make("tokens")
  .add(ListTokensEndpoint)
  .add(CreateTokenEndpoint)
  .add(RevokeTokenEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "The caller's API tokens in the current account: list, issue (the secret is shown once) and revoke. Needs the permission token-manage."
  )

/** The caller's API tokens: list, issue and revoke. Needs the permission token-manage. */
export class TokensGroup extends TokensGroupBase {}

const WaslApiBase: HttpApi.HttpApi<
  "wasl",
  | typeof MeGroup
  | typeof AuthGroup
  | typeof TokensGroup
  | typeof AccountsGroup
  | typeof EmailLinksGroup
  | typeof MembersGroup
  | typeof InvitationsGroup
  | typeof TeamsGroup
  | typeof PropertiesGroup
  | typeof PipelinesGroup
  | typeof ViewsGroup
  | typeof TrashGroup
  | typeof MergesGroup
  | typeof WebhooksGroup
  | typeof DeliveriesGroup
  | typeof NotificationsGroup
  | typeof MessagingGroup
  | typeof PlatformsGroup
  | typeof CampaignsGroup
  | typeof ConversationsGroup
  | typeof OtpGroup
  | typeof RecordLinksGroup
  | typeof NotesGroup
  | typeof HistoryGroup
  | typeof ImportsGroup
  | typeof RecordsGroup
  | typeof ExportsGroup
  | typeof HealthGroup
  | typeof WhatsAppGroup
> = HttpApi.make("wasl")
  .add(MeGroup)
  .add(AuthGroup)
  .add(TokensGroup)
  .add(AccountsGroup)
  .add(EmailLinksGroup)
  .add(MembersGroup)
  .add(InvitationsGroup)
  .add(TeamsGroup)
  .add(PropertiesGroup)
  .add(PipelinesGroup)
  .add(ViewsGroup)
  .add(TrashGroup)
  .add(MergesGroup)
  .add(WebhooksGroup)
  .add(DeliveriesGroup)
  .add(NotificationsGroup)
  .add(MessagingGroup)
  .add(PlatformsGroup)
  .add(CampaignsGroup)
  .add(ConversationsGroup)
  .add(OtpGroup)
  .add(RecordLinksGroup)
  .add(NotesGroup)
  .add(HistoryGroup)
  .add(ImportsGroup)
  .add(RecordsGroup)
  .add(ExportsGroup)
  .add(HealthGroup)
  .add(WhatsAppGroup)
  .annotate(HttpApi.PayloadParseOptions, { errors: "all", onExcessProperty: "ignore" })
  .annotateMerge(OpenApi.annotations({
    title: "Wasl API",
    version: "0.1.0",
    description: API_INTRODUCTION,
    license: { name: "MIT", identifier: "MIT" },
    // Relative: the server that serves this document, wherever Wasl runs (alone, behind a proxy,
    // or mounted in a host's app), so "try it" and generated clients need no configured origin.
    servers: [{ url: "/", description: "The server that serves this document" }],
    transform: (document) =>
      exemplifyErrors(
        declareFreeFormObjects(describeRecordBodies(declareRateLimitHeaders(documentIdempotencyKeys(documentPermissions(document)))))
      )
  }))

/**
 * Wasl's HTTP API as an Effect `HttpApi`: every endpoint under `/api` with its payload, answer and
 * error schemas, in groups (`me`, `auth`, `tokens`, `accounts`, `emailLinks`, `members`, `invitations`, `teams`, `records`, `recordLinks`, `notes`, `history`,
 * `exports`, `properties`, `pipelines`, `views`, `webhooks`, `deliveries`, `notifications`, `messaging`, `platforms`, `campaigns`, `conversations`, `otp`, `whatsapp`: Meta's
 * callbacks), and the health
 * probes (`health`) at `/health/live` and `/health/ready`. Serve it with
 * `WaslRoutes`, derive a typed client with `@wasl/http/client`, or its OpenAPI document with
 * `OpenApi.fromApi(WaslApi)`.
 *
 * Payloads are parsed reporting every error, and unknown fields are ignored.
 *
 * @example
 * ```ts
 * import { OpenApi } from "effect/http-api"
 * import { WaslApi } from "@wasl/http"
 *
 * const document = OpenApi.fromApi(WaslApi)
 * console.log(Object.keys(document.paths).length)
 * ```
 */
export class WaslApi extends WaslApiBase {}
