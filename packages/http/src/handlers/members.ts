import { Effect, Option, type Layer } from "effect"
import { HttpServerRequest, type HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import {
  acceptInvitation,
  inviteMember,
  listInvitations,
  listMembers,
  removeMember,
  revokeInvitation,
  updateMember
} from "@wasl/core/Accounts"
import { authenticateSession, RateLimitPolicy } from "@wasl/core/Auth"
import { forbidden } from "@wasl/core/Errors"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { listRequest, paginated } from "../list-request.ts"
import { CREATED, DELETED, MODIFIED } from "../messages.ts"
import { clientAddress, limitRequest } from "../rate-limit.ts"
import { type Authentication, CurrentPrincipal, SESSION_COOKIE } from "../security.ts"

/** The handlers of the `members` group: the account's members and invitations. */
export const MemberHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "members">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "members", (handlers) =>
  handlers
    .handle("listMembers", () =>
      Effect.gen(function*() {
        const request = yield* listRequest
        return paginated(request, yield* domain(listMembers(yield* CurrentPrincipal, request.input)))
      }))
    .handle("updateMember", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(updateMember(yield* CurrentPrincipal, params.user_id, payload)), message: MODIFIED }
      }))
    .handle("removeMember", ({ params }) =>
      Effect.gen(function*() {
        yield* domain(removeMember(yield* CurrentPrincipal, params.user_id))
        return { message: DELETED, data: [] as const }
      }))
    .handle("listInvitations", () =>
      Effect.gen(function*() {
        const request = yield* listRequest
        return paginated(request, yield* domain(listInvitations(yield* CurrentPrincipal, request.input)))
      }))
    .handle("invite", ({ payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(inviteMember(yield* CurrentPrincipal, payload)), message: CREATED }
      }))
    .handle("revokeInvitation", ({ params }) =>
      Effect.gen(function*() {
        yield* domain(revokeInvitation(yield* CurrentPrincipal, params.id))
        return { message: DELETED, data: [] as const }
      })))

/**
 * The user signed in by the request's session cookie, if any. A session that changes state must
 * carry `X-Requested-With: XMLHttpRequest` (the CSRF guard every session request obeys), else 403.
 */
const signedInUser = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const cookie = request.cookies[SESSION_COOKIE] ?? ""
  if (cookie === "") return Option.none<number>()
  const principal = yield* Effect.option(authenticateSession(cookie))
  if (Option.isSome(principal) && request.headers["x-requested-with"] !== "XMLHttpRequest") {
    return yield* domain(Effect.fail(forbidden("CSRF check failed: send X-Requested-With: XMLHttpRequest.")))
  }
  return Option.map(principal, (p) => p.userId)
})

/**
 * The handlers of the `invitations` group: accepting an invitation. Open to anyone holding the
 * link, so attempts count per client address like logins (`RateLimitPolicy.login`); the token is
 * then looked up by its hash before anything else is done.
 */
export const InvitationHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "invitations">,
  never,
  HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "invitations", (handlers) =>
  Effect.gen(function*() {
    const policy = yield* RateLimitPolicy
    return handlers.handle("accept", ({ params, payload }) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        yield* limitRequest([[`invitation-address:${clientAddress(request)}`, policy.login]])
        const member = yield* domain(acceptInvitation(params.token, payload, yield* signedInUser))
        return { data: member, message: CREATED }
      }))
  }))
