/** The account's members and invitations (`/api/account/members`, `/api/account/invitations`) and accepting an invitation. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Invitation, Member, MemberEntry } from "@wasl/core/Accounts"
import { DeletedAnswer } from "./deleted-answer.ts"
import { type AuthenticatedGroup, commonErrors, DataMessageAnswer, type PathParams, type WaslEndpoint } from "./endpoint-types.ts"
import {
  type CommonErrors,
  Forbidden403,
  Gone410,
  NotFound404,
  ServiceUnavailable503,
  Unauthenticated401,
  Validation422
} from "./errors.ts"
import { PAGE_PARAMETERS, withQueryParameters } from "./list-query-openapi.ts"
import { Pagination } from "./list-request.ts"
import { TooManyRequests429WithRetryAfter } from "./retry-after.ts"
import { Authentication } from "./security.ts"

/** An id in a path (a user, a team, an invitation): a positive integer; anything else is 404. */
export const PositiveIdParam: Schema.FiniteFromString = Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThan(0))

/** A list of team ids in a body: positive integers, at most 100. */
const TeamIds = Schema.Array(Schema.Int.check(Schema.isGreaterThan(0))).check(Schema.isMaxLength(100))

/** The body of `PUT /api/account/members/{user_id}`: a new status, and/or the member's teams exactly. */
export const UpdateMemberPayload: Schema.Struct<{
  readonly status: Schema.optional<Schema.Literals<readonly ["active", "suspended"]>>
  readonly team_ids: Schema.optional<Schema.$Array<Schema.Int>>
}> = Schema.Struct({
  status: Schema.optional(Schema.Literals(["active", "suspended"])),
  team_ids: Schema.optional(TeamIds)
})

/** The body of `POST /api/account/invitations`: the invitee's address and the teams it joins. */
export const InvitePayload: Schema.Struct<{
  readonly email: Schema.String
  readonly team_ids: Schema.$Array<Schema.Int>
}> = Schema.Struct({
  email: Schema.String.check(Schema.isMaxLength(254)),
  team_ids: TeamIds
})

/** The body of `POST /api/invitations/{token}/accept`: a new user's names and password (nothing for an existing user). */
export const AcceptInvitationPayload: Schema.Struct<{
  readonly firstname: Schema.optional<Schema.String>
  readonly lastname: Schema.optional<Schema.String>
  readonly password: Schema.optional<Schema.String>
}> = Schema.Struct({
  firstname: Schema.optional(Schema.String.check(Schema.isMaxLength(1024))),
  lastname: Schema.optional(Schema.String.check(Schema.isMaxLength(1024))),
  password: Schema.optional(Schema.String.check(Schema.isMaxLength(1024)))
})

const userIdParams = { user_id: PositiveIdParam }
const idParams = { id: PositiveIdParam }

/** `GET /api/account/members`: the account's members, then the people invited who have not accepted yet, paginated. */
export const ListMembersEndpoint: WaslEndpoint<"listMembers", "GET", "/account/members", {
  success: Pagination<typeof MemberEntry>
}> = HttpApiEndpoint.get("listMembers", "/account/members", {
  success: Pagination(MemberEntry),
  error: commonErrors
}).annotate(OpenApi.Summary, "List the account's members and invitees").annotate(
  OpenApi.Description,
  "One page at a time: the account's members by when they joined, each one's user (id, email, names, image), status (active or suspended), teams and last use of the account; " +
    "then the people invited who have not accepted yet, newest first, each with status invited, user and last_used null, the invited email, teams, and the invitation's id (invitation_id, " +
    "which DELETE /api/account/invitations/{id} revokes) and expiry. total counts both. Permission member-manage."
).annotate(OpenApi.Transform, withQueryParameters(PAGE_PARAMETERS))

/** `PUT /api/account/members/:user_id`: suspends or reactivates a member, and/or sets its teams. */
export const UpdateMemberEndpoint: WaslEndpoint<"updateMember", "PUT", "/account/members/:user_id", {
  params: PathParams<{ user_id: typeof PositiveIdParam }>; payload: typeof UpdateMemberPayload; success: DataMessageAnswer<typeof Member>
}> = HttpApiEndpoint.put("updateMember", "/account/members/:user_id", {
  params: userIdParams,
  payload: UpdateMemberPayload,
  success: DataMessageAnswer(Member),
  error: commonErrors
}).annotate(OpenApi.Summary, "Suspend, reactivate or move a member").annotate(
  OpenApi.Description,
  "status suspended: none of the member's sessions and tokens works in this account from now on, on every server; active: they work again. team_ids: the member's teams, exactly (teams of this account, else 422 under team_ids.N). " +
    "A permission the member would gain through a team must be one the caller holds (403 naming it). The last active member holding member-manage cannot be suspended or moved out of it (422). Permission member-manage."
)

/** `DELETE /api/account/members/:user_id`: removes a member from the account. */
export const RemoveMemberEndpoint: WaslEndpoint<"removeMember", "DELETE", "/account/members/:user_id", {
  params: PathParams<{ user_id: typeof PositiveIdParam }>; success: typeof DeletedAnswer
}> = HttpApiEndpoint.delete("removeMember", "/account/members/:user_id", {
  params: userIdParams,
  success: DeletedAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Remove a member").annotate(
  OpenApi.Description,
  "Removes the user from this account (their other accounts are untouched): their sessions and tokens here stop working at once, their teams, notifications and preferences here go. The last active member holding member-manage cannot be removed (422 under user_id). Permission member-manage."
)

/** `GET /api/account/invitations`: the pending invitations, paginated. */
export const ListInvitationsEndpoint: WaslEndpoint<"listInvitations", "GET", "/account/invitations", {
  success: Pagination<typeof Invitation>
}> = HttpApiEndpoint.get("listInvitations", "/account/invitations", {
  success: Pagination(Invitation),
  error: commonErrors
}).annotate(OpenApi.Summary, "List pending invitations").annotate(
  OpenApi.Description,
  "The account's invitations not yet accepted, revoked or expired, newest first. Permission member-manage."
).annotate(OpenApi.Transform, withQueryParameters(PAGE_PARAMETERS))

/** `POST /api/account/invitations`: invites someone by mail. */
export const InviteEndpoint: WaslEndpoint<"invite", "POST", "/account/invitations", {
  payload: typeof InvitePayload; success: DataMessageAnswer<typeof Invitation>; error: CommonErrors | typeof ServiceUnavailable503
}> = HttpApiEndpoint.post("invite", "/account/invitations", {
  payload: InvitePayload,
  success: DataMessageAnswer(Invitation).pipe(HttpApiSchema.status(201)),
  error: [...commonErrors, ServiceUnavailable503]
}).annotate(OpenApi.Summary, "Invite someone to the account").annotate(
  OpenApi.Description,
  "Mails the address a link that works once and expires after 7 days (only the SHA-256 of its token is kept). Accepting it makes them a member in team_ids (teams of this account, else 422 under team_ids.N). " +
    "Every permission of those teams must be one the caller holds (403 naming it). An address already a member's is 422. When the mail cannot be sent, the invitation is revoked and the answer is 503. Permission member-manage."
)

/** `DELETE /api/account/invitations/:id`: revokes a pending invitation. */
export const RevokeInvitationEndpoint: WaslEndpoint<"revokeInvitation", "DELETE", "/account/invitations/:id", {
  params: PathParams<{ id: typeof PositiveIdParam }>; success: typeof DeletedAnswer
}> = HttpApiEndpoint.delete("revokeInvitation", "/account/invitations/:id", {
  params: idParams,
  success: DeletedAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Revoke an invitation").annotate(
  OpenApi.Description,
  "Its link answers 410 from now on (404 once the invitations' retention, 30 days by default, has passed). One already accepted or revoked, or another account's, is 404. Permission member-manage."
)

const MembersGroupBase: AuthenticatedGroup<
  "members",
  | typeof ListMembersEndpoint
  | typeof UpdateMemberEndpoint
  | typeof RemoveMemberEndpoint
  | typeof ListInvitationsEndpoint
  | typeof InviteEndpoint
  | typeof RevokeInvitationEndpoint
> = HttpApiGroup.make("members")
  .add(ListMembersEndpoint)
  .add(UpdateMemberEndpoint)
  .add(RemoveMemberEndpoint)
  .add(ListInvitationsEndpoint)
  .add(InviteEndpoint)
  .add(RevokeInvitationEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "The account's members and invitations: list, suspend, move between teams and remove members; invite people by mail and revoke invitations. Needs the permission member-manage."
  )

/** The account's members and invitations. Needs the permission member-manage. */
export class MembersGroup extends MembersGroupBase {}

/** `POST /api/invitations/:token/accept`: accepts an invitation (no token or session needed for a new user). */
export const AcceptInvitationEndpoint: WaslEndpoint<"accept", "POST", "/invitations/:token/accept", {
  params: PathParams<{ token: Schema.String }>
  payload: typeof AcceptInvitationPayload
  success: DataMessageAnswer<typeof Member>
  error:
    | typeof Unauthenticated401
    | typeof Forbidden403
    | typeof NotFound404
    | typeof Gone410
    | typeof Validation422
    | typeof TooManyRequests429WithRetryAfter
}> = HttpApiEndpoint.post("accept", "/invitations/:token/accept", {
  params: { token: Schema.String },
  payload: AcceptInvitationPayload,
  success: DataMessageAnswer(Member).pipe(HttpApiSchema.status(201)),
  error: [Unauthenticated401, Forbidden403, NotFound404, Gone410, Validation422, TooManyRequests429WithRetryAfter]
}).annotate(OpenApi.Summary, "Accept an invitation").annotate(
  OpenApi.Description,
  "The token is the one of the link the invitation mailed. For an address no user has yet, creates the user with firstname, lastname and password (at least 8 characters), then the membership in the invitation's teams; sign in with POST /api/auth/login. " +
    "For an address that already has a user, send the request signed in as that user (their wasl_session cookie, with X-Requested-With: XMLHttpRequest): the account is added to theirs (401 when not signed in, 403 as another user). " +
    "A member whose e-mail is not verified yet is then mailed a link (valid 7 days) that sets email_verified_at when followed (POST /api/me/email/verify/confirm). " +
    "An unknown token is 404; an invitation already accepted, revoked or expired is 410 with its status, and one that is so for longer than the invitations' retention (30 days by default) is 404. " +
    "Attempts are limited per client address (429)."
)

const InvitationsGroupBase: HttpApiGroup.AddPrefix<HttpApiGroup.HttpApiGroup<"invitations", typeof AcceptInvitationEndpoint>, "/api"> =
  HttpApiGroup.make("invitations")
    .add(AcceptInvitationEndpoint)
    .prefix("/api")
    .annotate(OpenApi.Description, "Accepting an invitation to an account, from the link it mailed (no API token needed).")

/** Accepting an invitation, from the link it mailed. */
export class InvitationsGroup extends InvitationsGroupBase {}
