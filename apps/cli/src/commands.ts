/**
 * The `wasl` command line (migrate, bootstrap, credits, plan, token, member, team). Each command prints one JSON line on
 * success; failures print a message on stderr and exit 1.
 */
import { Console, Effect, Option, Schema, SchemaGetter } from "effect"
import { Command, Flag } from "effect/cli"
import { runMigrations } from "@wasl/adapters/Postgres"
import { DatabaseConfig, EffectiveSettings } from "@wasl/app-server"
import {
  addOtpCredits,
  bootstrapAccount,
  createTokenForMember,
  messageAllowanceOf,
  Plan,
  setCustomMessageLimit,
  setPlan
} from "@wasl/core/Accounts"
import { Ability } from "@wasl/core/Auth"
import { CliDatabase, withServices } from "./database.ts"
import { memberCommands } from "./members.ts"
import { sandboxReceive } from "./sandbox-receive.ts"

const printJson = (value: unknown) => Console.log(JSON.stringify(value))

const accountFlag = Flag.Int("account").pipe(Flag.withDescription("the account's id"))

const migrate = Command.make("migrate", {}, () =>
  Effect.gen(function*() {
    const config = yield* DatabaseConfig
    const applied = yield* Effect.provide(runMigrations, CliDatabase(config))
    yield* printJson({ migrated: applied.map(([id, name]) => `${String(id).padStart(4, "0")}_${name}`) })
  })).pipe(Command.withDescription("Apply pending database migrations"))

const bootstrap = Command.make("bootstrap", {
  account: Flag.String("account").pipe(Flag.withDescription("the new account's name")),
  email: Flag.String("email").pipe(Flag.withDescription("the owner's email address (the login)")),
  password: Flag.String("password").pipe(Flag.withDescription("the owner's password")),
  plan: Flag.Literals("plan", Plan.literals).pipe(
    Flag.withDescription("the account's plan"),
    Flag.withDefault("business" as const)
  ),
  otpCredits: Flag.Int("otp-credits").pipe(
    Flag.withDescription("one-time-password credits to start with"),
    Flag.withDefault(0)
  )
}, (input) =>
  withServices(bootstrapAccount(input)).pipe(Effect.flatMap(printJson))).pipe(
    Command.withDescription("Create an account, its owner, the Administrators team and an owner token")
  )

const creditsAdd = Command.make("add", {
  account: accountFlag,
  amount: Flag.Int("amount").pipe(Flag.withDescription("how many credits to add"))
}, ({ account, amount }) =>
  withServices(addOtpCredits(account, amount)).pipe(
    Effect.flatMap((a) => printJson({ account_id: a.id, otp_credits: a.otp_credits }))
  )).pipe(Command.withDescription("Add OTP credits to an account"))

const planSet = Command.make("set", {
  account: accountFlag,
  plan: Flag.Literals("plan", Plan.literals).pipe(Flag.withDescription("the new plan")),
  webhookLimit: Flag.Int("webhook-limit").pipe(
    Flag.withDescription("for the custom plan: how many webhooks the account may have"),
    Flag.optional
  ),
  messages: Flag.Int("messages").pipe(
    Flag.withDescription("for the custom plan: how many template messages the account may send a month"),
    Flag.optional
  )
}, ({ account, plan, webhookLimit, messages }) =>
  withServices(Effect.gen(function*() {
    const updated = yield* setPlan(account, plan, Option.getOrNull(webhookLimit))
    if (Option.isSome(messages)) yield* setCustomMessageLimit(account, messages.value)
    const allowance = yield* messageAllowanceOf(account)
    return { account_id: updated.id, plan: updated.plan, webhook_limit: updated.webhook_limit, message_limit: allowance.limit }
  })).pipe(Effect.flatMap(printJson))).pipe(
    Command.withDescription("Change an account's plan (and, for custom, its webhook limit and monthly message allowance)")
  )

/** `a,b,c` → a non-empty list of known abilities. */
const Abilities = Schema.String.pipe(
  Schema.decodeTo(Schema.Array(Schema.String), {
    decode: SchemaGetter.transform((s: string) => s.split(",").map((a) => a.trim()).filter((a) => a !== "")),
    encode: SchemaGetter.transform((abilities: ReadonlyArray<string>) => abilities.join(","))
  }),
  Schema.decodeTo(Schema.Array(Ability).check(Schema.isMinLength(1)))
)

const tokenCreate = Command.make("create", {
  user: Flag.Int("user").pipe(Flag.withDescription("the member's user id")),
  account: accountFlag,
  abilities: Flag.String("abilities").pipe(
    Flag.withDescription("comma-separated permission names, or *"),
    Flag.withSchema(Abilities)
  )
}, ({ user, account, abilities }) =>
  withServices(createTokenForMember({ accountId: account, userId: user, abilities })).pipe(
    Effect.flatMap(({ token, plainText }) => printJson({ id: token.id, token: plainText }))
  )).pipe(Command.withDescription("Create an API token for a member of an account"))

const sandboxReceiveCommand = Command.make("receive", {
  platform: Flag.Int("platform").pipe(Flag.withDescription("the sandbox sending number's id")),
  from: Flag.String("from").pipe(Flag.withDescription("the sender's phone number (its digits are its WhatsApp id)")),
  text: Flag.String("text").pipe(Flag.withDescription("the message's text")),
  name: Flag.String("name").pipe(Flag.withDescription("the sender's WhatsApp profile name (default: the number)"), Flag.optional)
}, ({ platform, from, text, name }) =>
  withServices(sandboxReceive({ platform, from, text, name: Option.getOrUndefined(name) })).pipe(Effect.flatMap(printJson))).pipe(
    Command.withDescription("Deliver a text message to a sandbox number as if a contact sent it on WhatsApp")
  )

const config = Command.make("config", {}, () => Effect.flatMap(EffectiveSettings, printJson)).pipe(
  Command.withDescription(
    "Print the settings in effect (the environment, else the defaults), secrets redacted; refuse a bad one as the service would"
  )
)

export const wasl = Command.make("wasl").pipe(
  Command.withDescription("Operate a Wasl deployment"),
  Command.withSubcommands([
    migrate,
    bootstrap,
    config,
    Command.make("credits").pipe(
      Command.withDescription("Manage an account's one-time-password credits"),
      Command.withSubcommands([creditsAdd])
    ),
    Command.make("plan").pipe(Command.withDescription("Manage an account's plan"), Command.withSubcommands([planSet])),
    Command.make("token").pipe(Command.withDescription("Manage API tokens"), Command.withSubcommands([tokenCreate])),
    ...memberCommands,
    Command.make("sandbox").pipe(
      Command.withDescription("Act as the sandbox's contacts"),
      Command.withSubcommands([sandboxReceiveCommand])
    )
  ])
)
