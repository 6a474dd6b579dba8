/**
 * `wasl member invite|list|remove` and `wasl team create|list|grant`: an account's members and
 * teams, managed by an operator acting as one of its members (`--as`): that member's current
 * permissions apply, as they would to its session, with every rule of the API (nobody grants what
 * they do not hold; the account keeps a member holding member-manage).
 */
import { Console, Effect, Layer, Option, Schema, SchemaGetter } from "effect"
import { Command, Flag } from "effect/cli"
import { DEFAULT_DATA_DIR, mailerOf } from "@wasl/adapters/Deployment"
import { WaslConfig } from "@wasl/app-server"
import { withServices } from "./database.ts"
import {
  actingMember,
  createTeam,
  Invitation,
  inviteMember,
  listMembers,
  listTeams,
  MemberEntry,
  removeMember,
  showTeam,
  TeamDetails,
  updateTeam
} from "@wasl/core/Accounts"
import { Permission, type Principal } from "@wasl/core/Auth"
import { PublicUrl } from "@wasl/core/Deployment"

const printJson = (value: unknown) => Console.log(JSON.stringify(value))

const accountFlag = Flag.Int("account").pipe(Flag.withDescription("the account's id"))
const asFlag = Flag.Int("as").pipe(Flag.withDescription("the user id of the member the command acts as (its permissions apply)"))
const pageFlag = Flag.Int("page").pipe(Flag.withDescription("the page, 100 per page"), Flag.withDefault(1))

/** `a,b,c` → a list of the given items, decoded by `item`. */
const commaList = <S extends Schema.Top & { readonly DecodingServices: never }>(item: S) =>
  Schema.String.pipe(
    Schema.decodeTo(Schema.Array(Schema.String), {
      decode: SchemaGetter.transform((s: string) => s.split(",").map((a) => a.trim()).filter((a) => a !== "")),
      encode: SchemaGetter.transform((items: ReadonlyArray<string>) => items.join(","))
    }),
    Schema.decodeTo(Schema.Array(item))
  )
const Permissions = commaList(Permission)
const Ids = commaList(Schema.NumberFromString.check(Schema.isInt(), Schema.isGreaterThan(0)))

const encodeMember = Schema.encodeSync(MemberEntry)
const encodeTeam = Schema.encodeSync(TeamDetails)
const encodeInvitation = Schema.encodeSync(Invitation)

/** The mailer and public URL the server is configured with, for an invitation's link. */
const MailFromConfig = Layer.unwrap(Effect.map(WaslConfig, (config) =>
  Layer.merge(mailerOf(config.mail ?? {}, config.dataDir ?? DEFAULT_DATA_DIR), Layer.succeed(PublicUrl, config.publicUrl))))

/** `f` over the principal of the member `as` of `account`, on the configured database. */
const acting = <A, E, R>(account: number, as: number, f: (principal: Principal) => Effect.Effect<A, E, R>) =>
  withServices(Effect.flatMap(actingMember(account, as), f))

const invite = Command.make("invite", {
  account: accountFlag,
  as: asFlag,
  email: Flag.String("email").pipe(Flag.withDescription("the invitee's e-mail address (the link is mailed there)")),
  teams: Flag.String("teams").pipe(Flag.withDescription("comma-separated ids of the teams the invitee joins"), Flag.withSchema(Ids), Flag.withDefault([]))
}, ({ account, as, email, teams }) =>
  acting(account, as, (principal) => inviteMember(principal, { email, team_ids: teams }).pipe(Effect.provide(MailFromConfig))).pipe(
    Effect.flatMap((invitation) => printJson(encodeInvitation(invitation)))
  )).pipe(Command.withDescription("Invite someone to the account by mail (a link that works once, for 7 days)"))

const list = Command.make("list", { account: accountFlag, as: asFlag, page: pageFlag }, ({ account, as, page }) =>
  acting(account, as, (principal) => listMembers(principal, { page: String(page), per_page: "100" })).pipe(
    Effect.flatMap((members) => printJson({ data: members.items.map((member) => encodeMember(member)), total: members.total }))
  )).pipe(Command.withDescription("List the account's members with their status and teams, then the people invited who have not accepted yet"))

const remove = Command.make("remove", {
  account: accountFlag,
  as: asFlag,
  user: Flag.Int("user").pipe(Flag.withDescription("the user id of the member to remove"))
}, ({ account, as, user }) =>
  acting(account, as, (principal) => removeMember(principal, user)).pipe(Effect.flatMap(() => printJson({ removed: user })))).pipe(
    Command.withDescription("Remove a member from the account: its sessions and tokens there stop working")
  )

const teamCreate = Command.make("create", {
  account: accountFlag,
  as: asFlag,
  name: Flag.String("name").pipe(Flag.withDescription("the team's name")),
  description: Flag.String("description").pipe(Flag.withDescription("what the team is for"), Flag.optional),
  permissions: Flag.String("permissions").pipe(
    Flag.withDescription("comma-separated permission names its members hold"),
    Flag.withSchema(Permissions),
    Flag.withDefault([])
  )
}, ({ account, as, description, name, permissions }) =>
  acting(account, as, (principal) => createTeam(principal, { name, description: Option.getOrNull(description), permissions })).pipe(
    Effect.flatMap((team) => printJson(encodeTeam(team)))
  )).pipe(Command.withDescription("Create a team (with no members) holding the permissions given"))

const teamList = Command.make("list", { account: accountFlag, as: asFlag, page: pageFlag }, ({ account, as, page }) =>
  acting(account, as, (principal) => listTeams(principal, { page: String(page), per_page: "100" })).pipe(
    Effect.flatMap((teams) => printJson({ data: teams.items.map((team) => encodeTeam(team)), total: teams.total }))
  )).pipe(Command.withDescription("List the account's teams with their permissions and members"))

const teamGrant = Command.make("grant", {
  account: accountFlag,
  as: asFlag,
  team: Flag.Int("team").pipe(Flag.withDescription("the team's id")),
  permissions: Flag.String("permissions").pipe(
    Flag.withDescription("comma-separated permission names to add to the team"),
    Flag.withSchema(Permissions)
  )
}, ({ account, as, permissions, team }) =>
  acting(account, as, (principal) =>
    Effect.flatMap(showTeam(principal, team), (current) =>
      updateTeam(principal, team, { ...current, permissions: [...current.permissions, ...permissions] }))).pipe(
    Effect.flatMap((updated) => printJson(encodeTeam(updated)))
  )).pipe(Command.withDescription("Add permissions to a team (its members hold them at once)"))

/** `wasl member` and `wasl team`. */
export const memberCommands = [
  Command.make("member").pipe(
    Command.withDescription("Manage an account's members and invitations"),
    Command.withSubcommands([invite, list, remove])
  ),
  Command.make("team").pipe(
    Command.withDescription("Manage an account's teams and their permissions"),
    Command.withSubcommands([teamCreate, teamList, teamGrant])
  )
] as const
