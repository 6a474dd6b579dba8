/**
 * The HTTP contract: every endpoint with its payload, success and error
 * schemas. Handlers live in handlers/; OpenAPI is generated from this.
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Ability, ApiToken, CurrentUser } from "@wasl/core"
import { Forbidden403, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import { NotesGroup } from "./notes-api.ts"
import { PropertiesGroup } from "./properties-api.ts"
import { MessagingGroup } from "./messaging-api.ts"
import { OtpGroup } from "./otp-api.ts"
import { RecordLinksGroup } from "./record-links-api.ts"
import { RecordsGroup } from "./records-api.ts"
import { Authentication } from "./security.ts"
import { WebhooksGroup } from "./webhooks-api.ts"
import { DeliveriesGroup } from "./deliveries-api.ts"
import { NotificationsGroup } from "./notifications-api.ts"

const Deleted = Schema.Struct({ message: Schema.String, data: Schema.Tuple([]) })

export class MeGroup extends HttpApiGroup.make("me")
  .add(
    HttpApiEndpoint.get("show", "/me", {
      success: CurrentUser,
      error: [Unauthenticated401]
    }).annotate(OpenApi.Description, "The calling user, its current account, teams and preferences (no data wrapper).")
  )
  .middleware(Authentication)
  .prefix("/api")
{}

export const LoginPayload = Schema.Struct({
  email: Schema.String.check(Schema.isMaxLength(255)),
  password: Schema.String.check(Schema.isMaxLength(1024))
})

export class AuthGroup extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("login", "/auth/login", {
      payload: LoginPayload,
      success: Schema.Struct({ data: CurrentUser }),
      error: [Validation422]
    }).annotate(OpenApi.Description, "Opens a first-party session: sets the HttpOnly wasl_session cookie.")
  )
  .add(
    HttpApiEndpoint.post("logout", "/auth/logout", {
      success: HttpApiSchema.NoContent,
      error: [Unauthenticated401, Forbidden403]
    }).middleware(Authentication)
  )
  .prefix("/api")
{}

export const CreateTokenPayload = Schema.Struct({
  name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255)),
  abilities: Schema.Array(Ability).check(Schema.isMinLength(1))
})

export const TokenIdParam = Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThan(0))

export class TokensGroup extends HttpApiGroup.make("tokens")
  .add(
    HttpApiEndpoint.get("list", "/tokens", {
      success: Schema.Struct({ data: Schema.Array(ApiToken) }),
      error: [Unauthenticated401, Forbidden403]
    })
  )
  .add(
    HttpApiEndpoint.post("create", "/tokens", {
      payload: CreateTokenPayload,
      success: Schema.Struct({ data: ApiToken, token: Schema.String }).pipe(HttpApiSchema.status(201)),
      error: [Unauthenticated401, Forbidden403, Validation422]
    }).annotate(OpenApi.Description, "The plain-text token is in `token`, shown this once.")
  )
  .add(
    HttpApiEndpoint.delete("revoke", "/tokens/:id", {
      params: { id: TokenIdParam },
      success: Deleted,
      error: [Unauthenticated401, Forbidden403, NotFound404]
    })
  )
  .middleware(Authentication)
  .prefix("/api")
{}

export class WaslApi extends HttpApi.make("wasl")
  .add(MeGroup)
  .add(AuthGroup)
  .add(TokensGroup)
  .add(PropertiesGroup)
  .add(WebhooksGroup)
  .add(DeliveriesGroup)
  .add(NotificationsGroup)
  .add(MessagingGroup)
  .add(OtpGroup)
  .add(RecordLinksGroup)
  .add(NotesGroup)
  .add(RecordsGroup)
  .annotate(HttpApi.PayloadParseOptions, { errors: "all", onExcessProperty: "ignore" })
  .annotateMerge(OpenApi.annotations({
    title: "Wasl API",
    version: "0.1.0",
    description: "Multi-account customer relationship service. See the interface specification for every rule."
  }))
{}
