import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { createTeam, deleteTeam, listTeams, setTeamMembers, showTeam, updateTeam } from "@wasl/core/Accounts"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { listRequest, paginated } from "../list-request.ts"
import { CREATED, DELETED, MODIFIED } from "../messages.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handlers of the `teams` group: the account's teams and their permissions. */
export const TeamHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "teams">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "teams", (handlers) =>
  handlers
    .handle("list", () =>
      Effect.gen(function*() {
        const request = yield* listRequest
        return paginated(request, yield* domain(listTeams(yield* CurrentPrincipal, request.input)))
      }))
    .handle("create", ({ payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(createTeam(yield* CurrentPrincipal, payload)), message: CREATED }
      }))
    .handle("show", ({ params }) =>
      Effect.gen(function*() {
        return { data: yield* domain(showTeam(yield* CurrentPrincipal, params.id)) }
      }))
    .handle("update", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(updateTeam(yield* CurrentPrincipal, params.id, payload)), message: MODIFIED }
      }))
    .handle("delete", ({ params }) =>
      Effect.gen(function*() {
        yield* domain(deleteTeam(yield* CurrentPrincipal, params.id))
        return { message: DELETED, data: [] as const }
      }))
    .handle("setMembers", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(setTeamMembers(yield* CurrentPrincipal, params.id, payload.user_ids)), message: MODIFIED }
      })))
