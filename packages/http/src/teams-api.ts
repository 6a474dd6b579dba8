/** The account's teams and their permissions (`/api/account/teams`). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { TeamDetails } from "@wasl/core/Accounts"
import { Permission, PERMISSIONS } from "@wasl/core/Auth"
import { DeletedAnswer } from "./deleted-answer.ts"
import {
  type AuthenticatedGroup,
  commonErrors,
  DataAnswer,
  DataMessageAnswer,
  type PathParams,
  type WaslEndpoint
} from "./endpoint-types.ts"
import { PAGE_PARAMETERS, withQueryParameters } from "./list-query-openapi.ts"
import { Pagination } from "./list-request.ts"
import { PositiveIdParam } from "./members-api.ts"
import { Authentication } from "./security.ts"

/** The body of a team's create or update: its name, description and permissions (names validated, 422 under `permissions.N`). */
export const TeamPayload: Schema.Struct<{
  readonly name: Schema.String
  readonly description: Schema.optionalKey<Schema.NullOr<Schema.String>>
  readonly permissions: Schema.$Array<typeof Permission>
}> = Schema.Struct({
  name: Schema.String.check(Schema.isMaxLength(1024)),
  description: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(4096)))),
  permissions: Schema.Array(Permission).check(Schema.isMaxLength(PERMISSIONS.length * 2))
})

/** The body of `PUT /api/account/teams/{id}/members`: the team's members, exactly. */
export const TeamMembersPayload: Schema.Struct<{ readonly user_ids: Schema.$Array<Schema.Int> }> = Schema.Struct({
  user_ids: Schema.Array(Schema.Int.check(Schema.isGreaterThan(0))).check(Schema.isMaxLength(1000))
})

const idParams = { id: PositiveIdParam }

/** `GET /api/account/teams`: the account's teams, paginated. */
export const ListTeamsEndpoint: WaslEndpoint<"list", "GET", "/account/teams", { success: Pagination<typeof TeamDetails> }> =
  HttpApiEndpoint.get("list", "/account/teams", {
    success: Pagination(TeamDetails),
    error: commonErrors
  }).annotate(OpenApi.Summary, "List the account's teams").annotate(
    OpenApi.Description,
    "The account's teams by id, one page at a time, each with its permissions and its members' user ids. Permission team-manage."
  ).annotate(OpenApi.Transform, withQueryParameters(PAGE_PARAMETERS))

/** `POST /api/account/teams`: creates a team. */
export const CreateTeamEndpoint: WaslEndpoint<"create", "POST", "/account/teams", {
  payload: typeof TeamPayload; success: DataMessageAnswer<typeof TeamDetails>
}> = HttpApiEndpoint.post("create", "/account/teams", {
  payload: TeamPayload,
  success: DataMessageAnswer(TeamDetails).pipe(HttpApiSchema.status(201)),
  error: commonErrors
}).annotate(OpenApi.Summary, "Create a team").annotate(
  OpenApi.Description,
  "A team with no members yet: its members hold its permissions in this account. An unknown permission name is 422 under permissions.N; one the caller does not hold itself is 403 naming it. Permission team-manage."
)

/** `GET /api/account/teams/:id`: one team. */
export const ShowTeamEndpoint: WaslEndpoint<"show", "GET", "/account/teams/:id", {
  params: PathParams<{ id: typeof PositiveIdParam }>; success: DataAnswer<typeof TeamDetails>
}> = HttpApiEndpoint.get("show", "/account/teams/:id", {
  params: idParams,
  success: DataAnswer(TeamDetails),
  error: commonErrors
}).annotate(OpenApi.Summary, "Show a team").annotate(
  OpenApi.Description,
  "One team of the account with its permissions and members; another account's is 404. Permission team-manage."
)

/** `PUT /api/account/teams/:id`: changes a team. */
export const UpdateTeamEndpoint: WaslEndpoint<"update", "PUT", "/account/teams/:id", {
  params: PathParams<{ id: typeof PositiveIdParam }>; payload: typeof TeamPayload; success: DataMessageAnswer<typeof TeamDetails>
}> = HttpApiEndpoint.put("update", "/account/teams/:id", {
  params: idParams,
  payload: TeamPayload,
  success: DataMessageAnswer(TeamDetails),
  error: commonErrors
}).annotate(OpenApi.Summary, "Change a team").annotate(
  OpenApi.Description,
  "Sets the team's name, description and permissions; its members hold the new permissions at once, on every server. A permission added must be one the caller holds (403 naming it); taking member-manage from the last active members holding it is 422 under permissions. Permission team-manage."
)

/** `DELETE /api/account/teams/:id`: deletes a team. */
export const DeleteTeamEndpoint: WaslEndpoint<"delete", "DELETE", "/account/teams/:id", {
  params: PathParams<{ id: typeof PositiveIdParam }>; success: typeof DeletedAnswer
}> = HttpApiEndpoint.delete("delete", "/account/teams/:id", {
  params: idParams,
  success: DeletedAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Delete a team").annotate(
  OpenApi.Description,
  "Its members leave it and lose what it granted at once. Deleting the team through which the last active members hold member-manage is 422 under team. Permission team-manage."
)

/** `PUT /api/account/teams/:id/members`: sets a team's members. */
export const SetTeamMembersEndpoint: WaslEndpoint<"setMembers", "PUT", "/account/teams/:id/members", {
  params: PathParams<{ id: typeof PositiveIdParam }>; payload: typeof TeamMembersPayload; success: DataMessageAnswer<typeof TeamDetails>
}> = HttpApiEndpoint.put("setMembers", "/account/teams/:id/members", {
  params: idParams,
  payload: TeamMembersPayload,
  success: DataMessageAnswer(TeamDetails),
  error: commonErrors
}).annotate(OpenApi.Summary, "Set a team's members").annotate(
  OpenApi.Description,
  "The team's members, exactly: members of this account (else 422 under user_ids.N). Adding anyone needs the caller to hold every permission of the team (403 naming the first it lacks); leaving no active member holding member-manage is 422 under user_ids. Permission team-manage."
)

const TeamsGroupBase: AuthenticatedGroup<
  "teams",
  | typeof ListTeamsEndpoint
  | typeof CreateTeamEndpoint
  | typeof ShowTeamEndpoint
  | typeof UpdateTeamEndpoint
  | typeof DeleteTeamEndpoint
  | typeof SetTeamMembersEndpoint
> = HttpApiGroup.make("teams")
  .add(ListTeamsEndpoint)
  .add(CreateTeamEndpoint)
  .add(ShowTeamEndpoint)
  .add(UpdateTeamEndpoint)
  .add(DeleteTeamEndpoint)
  .add(SetTeamMembersEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "The account's teams: a member holds the union of its teams' permissions. Create, change and delete teams and set their members; nobody grants a permission they do not hold. Needs the permission team-manage."
  )

/** The account's teams and their permissions. Needs the permission team-manage. */
export class TeamsGroup extends TeamsGroupBase {}
