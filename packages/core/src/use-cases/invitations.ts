/**
 * Inviting people to an account: a mail with a single-use link that expires after 7 days, whose
 * token is stored only as its SHA-256. Accepting creates the user (or, for someone who already has
 * one, adds the account to it once they are signed in) and its membership, in the invitation's teams.
 */
import { DateTime, Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import {
  type Invitation,
  INVITATION_LIFETIME_MILLIS,
  INVITATION_TOKEN_LENGTH
} from "../account/invitation.ts"
import { AccountRepository } from "../account/account-repository.ts"
import type { EmailTokenRepository } from "../account/email-token-repository.ts"
import { InvitationRepository } from "../account/invitation-repository.ts"
import type { Member } from "../account/member.ts"
import { MemberRepository } from "../account/member-repository.ts"
import { UserRepository } from "../account/user-repository.ts"
import { PasswordHasher } from "../auth/password-hasher.ts"
import type { Principal } from "../auth/principal.ts"
import { TokenHasher } from "../auth/token-hasher.ts"
import {
  type Forbidden,
  forbidden,
  Gone,
  invalid,
  NotFound,
  ServiceUnavailable,
  Unauthenticated,
  ValidationFailed
} from "../errors.ts"
import { Mailer } from "../mail/mailer.ts"
import { publicLink } from "../public-url.ts"
import type { ListQueryInput } from "../records/list-query-input.ts"
import { type Page, pageOffset, parsePageParams } from "../records/pagination.ts"
import { isEmail } from "../records/value-validation.ts"
import { Transactor } from "../transactor.ts"
import { laravelTrim } from "../validation/laravel-trim.ts"
import { LaravelMessageMore } from "../validation/more-validation-messages.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { randomAlphanumeric } from "../wire/random-string.ts"
import { authorize } from "./authenticate.ts"
import { sendEmailVerification } from "./email-change.ts"
import { delegate, permissionsOfTeams, requireAmong, teamIdsOf } from "./membership-rules.ts"
import { PASSWORD_MIN_LENGTH } from "./profile.ts"

const NAME_MAX = 255
const PASSWORD_MAX = 1024

/** What `POST /api/account/invitations` gives: who is invited, and to which teams. */
export interface InviteInput {
  /** The invitee's e-mail address: the link is mailed there, and the user has or gets it. */
  readonly email: string
  /** The teams of the account the invitee joins. */
  readonly team_ids: ReadonlyArray<number>
}

/** What `POST /api/invitations/{token}/accept` gives for a new user: its names and password. */
export interface AcceptInput {
  /** The first name (for a new user). */
  readonly firstname?: string | undefined
  /** The last name (for a new user). */
  readonly lastname?: string | undefined
  /** The password, at least 8 characters (for a new user). */
  readonly password?: string | undefined
}

/** The 410 of an invitation that was accepted, revoked or has expired. */
const gone = (status: "accepted" | "revoked" | "expired") =>
  new Gone({ message: `This invitation can no longer be accepted: it was ${status}.`, status })

const mailOf = (email: string, accountName: string, token: string) =>
  Effect.gen(function*() {
    const page = yield* publicLink(`/invitations/${token}`)
    const accept = yield* publicLink(`/api/invitations/${token}/accept`)
    return {
      to: email,
      subject: `You are invited to ${accountName} on Wasl`,
      text: [
        `You are invited to join ${accountName} on Wasl.`,
        "",
        `Accept the invitation at ${page}`,
        `(or with POST ${accept} and the body {"firstname", "lastname", "password"}; if you already`,
        "have a Wasl user with this address, sign in first and send the request with your session).",
        "",
        "The link works once and expires in 7 days."
      ].join("\n")
    }
  })

/**
 * `POST /api/account/invitations`: invites `email` to the caller's account, in `team_ids`, and
 * mails the invitee a link that works once within 7 days. Needs `member-manage`; each team must be
 * one of the account's (else {@link ValidationFailed} on `team_ids.N`) and every permission they
 * carry one the caller is allowed itself (else {@link Forbidden} naming it). An address that is
 * already a member's fails on `email`. When the mail cannot be sent the invitation is revoked and
 * the call fails {@link ServiceUnavailable}.
 */
export const inviteMember: (
  principal: Principal,
  input: InviteInput
) => Effect.Effect<
  Invitation,
  Forbidden | ServiceUnavailable | ValidationFailed,
  | AccountRepository
  | InvitationRepository
  | Mailer
  | MemberRepository
  | SecureRandom.SecureRandom
  | TokenHasher
  | UserRepository
> = Effect.fn("inviteMember")(function*(principal: Principal, input: InviteInput) {
  yield* authorize(principal, "member-manage")
  const email = laravelTrim(input.email)
  if (email === "") return yield* invalid("email", LaravelMessage.required("email"))
  if (!isEmail(email)) return yield* invalid("email", LaravelMessageMore.email("email"))
  const roster = yield* MemberRepository.use((members) => members.roster(principal.accountId))
  yield* requireAmong(teamIdsOf(roster), input.team_ids, "team_ids")
  yield* delegate(principal, permissionsOfTeams(roster, input.team_ids))
  const existing = yield* UserRepository.use((users) => users.findByEmail(email))
  if (Option.isSome(existing) && roster.members.some((member) => member.userId === existing.value.user.id)) {
    return yield* invalid("email", "The email is already a member of the account.")
  }
  const token = yield* randomAlphanumeric(INVITATION_TOKEN_LENGTH)
  const tokenHash = yield* (yield* TokenHasher).hash(token)
  const now = yield* DateTime.now
  const invitations = yield* InvitationRepository
  const invitation = yield* invitations.create({
    accountId: principal.accountId,
    email,
    teamIds: [...new Set(input.team_ids)],
    invitedBy: principal.userId,
    tokenHash,
    expiresAt: DateTime.add(now, { milliseconds: INVITATION_LIFETIME_MILLIS })
  })
  const account = yield* AccountRepository.use((accounts) => accounts.findById(principal.accountId))
  const accountName = Option.match(account, { onNone: () => "an account", onSome: (a) => a.name })
  yield* Effect.flatMap(mailOf(email, accountName, token), (mail) => Mailer.use((mailer) => mailer.send(mail))).pipe(
    Effect.catchTag("MailError", () =>
      Effect.andThen(
        invitations.revoke(principal.accountId, invitation.id, now),
        Effect.fail(new ServiceUnavailable({ message: "The invitation could not be mailed; try again later.", retryAfter: 60 }))
      ))
  )
  return invitation
})

/**
 * `GET /api/account/invitations`: one page of the account's pending invitations (neither accepted,
 * revoked nor expired), newest first. Needs `member-manage`.
 */
export const listInvitations: (
  principal: Principal,
  query: ListQueryInput
) => Effect.Effect<Page<Invitation>, Forbidden | ValidationFailed, InvitationRepository> = Effect.fn("listInvitations")(
  function*(principal: Principal, query: ListQueryInput) {
    yield* authorize(principal, "member-manage")
    const page = yield* parsePageParams(query)
    const now = yield* DateTime.now
    const { items, total } = yield* InvitationRepository.use((invitations) =>
      invitations.listPending(principal.accountId, now, { offset: pageOffset(page), limit: page.perPage })
    )
    return { items, total, ...page }
  }
)

/**
 * `DELETE /api/account/invitations/{id}`: revokes a pending invitation; its link answers 410 from
 * then on. Needs `member-manage`; an unknown one, another account's, or one no longer pending is
 * {@link NotFound}.
 */
export const revokeInvitation: (
  principal: Principal,
  id: number
) => Effect.Effect<void, Forbidden | NotFound, InvitationRepository> = Effect.fn("revokeInvitation")(
  function*(principal: Principal, id: number) {
    yield* authorize(principal, "member-manage")
    const now = yield* DateTime.now
    const revoked = yield* InvitationRepository.use((invitations) => invitations.revoke(principal.accountId, id, now))
    if (!revoked) return yield* new NotFound()
  }
)

/** The names and password of a new user, checked. */
const checkNewUser = (input: AcceptInput) => {
  const errors: Record<string, Array<string>> = {}
  const name = (field: "firstname" | "lastname") => {
    const value = laravelTrim(input[field] ?? "")
    if (value === "") errors[field] = [LaravelMessage.required(field)]
    else if (value.length > NAME_MAX) errors[field] = [LaravelMessageMore.maxString(field, NAME_MAX)]
    return value
  }
  const firstname = name("firstname")
  const lastname = name("lastname")
  const password = input.password ?? ""
  if (password === "") errors["password"] = [LaravelMessage.required("password")]
  else if (password.length < PASSWORD_MIN_LENGTH) {
    errors["password"] = [`The password field must be at least ${PASSWORD_MIN_LENGTH} characters.`]
  } else if (password.length > PASSWORD_MAX) errors["password"] = [LaravelMessageMore.maxString("password", PASSWORD_MAX)]
  return Object.keys(errors).length > 0
    ? Effect.fail(new ValidationFailed({ errors }))
    : Effect.succeed({ firstname, lastname, password })
}

/**
 * `POST /api/invitations/{token}/accept`: turns the invitation into a membership of its account,
 * in those of its teams that still exist, and answers the new member. The token is looked up by
 * its hash first: an unknown one is {@link NotFound}; one accepted, revoked or expired is
 * {@link Gone}. For an address no user has yet, the user is created with `input`'s names and
 * password (else {@link ValidationFailed}). For an address a user already has, `signedInUserId`
 * must be that user's (their session): none is {@link Unauthenticated}, another user's is
 * {@link Forbidden}. Accepted at most once, even by concurrent calls.
 *
 * Once accepted, a user whose e-mail is not verified yet is mailed a verification link
 * (`sendEmailVerification`): following it sets `email_verified_at`. The invitation's link proved
 * the mailbox only to whoever held it, so the address is verified by a link of its own. A mail
 * that cannot be sent leaves the membership as made (`POST /api/me/email/verify` sends another).
 */
export const acceptInvitation: (
  token: string,
  input: AcceptInput,
  signedInUserId: Option.Option<number>
) => Effect.Effect<
  Member,
  Forbidden | Gone | NotFound | Unauthenticated | ValidationFailed,
  | EmailTokenRepository
  | InvitationRepository
  | Mailer
  | MemberRepository
  | PasswordHasher
  | SecureRandom.SecureRandom
  | TokenHasher
  | Transactor
  | UserRepository
> = Effect.fn("acceptInvitation")(function*(token: string, input: AcceptInput, signedInUserId: Option.Option<number>) {
  const tokenHash = yield* (yield* TokenHasher).hash(token)
  const invitations = yield* InvitationRepository
  const found = yield* invitations.findByTokenHash(tokenHash)
  if (Option.isNone(found)) return yield* new NotFound()
  const { invitation, state } = found.value
  const now = yield* DateTime.now
  if (state !== "pending") return yield* gone(state)
  if (DateTime.isGreaterThanOrEqualTo(now, invitation.expires_at)) return yield* gone("expired")
  const users = yield* UserRepository
  const existing = yield* users.findByEmail(invitation.email)
  if (Option.isSome(existing)) {
    if (Option.isNone(signedInUserId)) return yield* new Unauthenticated()
    if (signedInUserId.value !== existing.value.user.id) {
      return yield* forbidden("This invitation is for another user: sign in as its address first.")
    }
  }
  const newUser = Option.isNone(existing) ? yield* checkNewUser(input) : undefined
  const passwordHash = newUser === undefined ? undefined : yield* (yield* PasswordHasher).hash(newUser.password)
  const accountId = invitation.account_id
  const member = yield* Transactor.use((transactor) =>
    transactor.transaction(Effect.gen(function*() {
      if (!(yield* invitations.accept(accountId, invitation.id, now))) return yield* gone("accepted")
      const userId = Option.isSome(existing)
        ? existing.value.user.id
        : (yield* users.create({ email: invitation.email, passwordHash: passwordHash!, ...newUser! })).id
      const members = yield* MemberRepository
      const roster = yield* members.roster(accountId)
      const before = roster.members.find((member) => member.userId === userId)?.teamIds ?? []
      yield* users.addMembership(accountId, userId)
      const teams = teamIdsOf(roster)
      yield* members.setTeams(accountId, userId, [...new Set([...before, ...invitation.team_ids.filter((id) => teams.has(id))])])
      return Option.getOrThrow(yield* members.find(accountId, userId))
    }))
  )
  yield* sendEmailVerification(member.user.id).pipe(
    Effect.catchTag("ServiceUnavailable", () => Effect.logWarning("An accepted invitation's e-mail verification link was not mailed"))
  )
  return member
})
