/** Set-ups the messaging and OTP contract suites share (not exported: the suites are the API). */
import { type Account, AccountRepository } from "@wasl/core/Accounts"
import {
  type Broadcast,
  type Message,
  type BroadcastInput,
  type BroadcastReview,
  BroadcastRepository,
  type Platform,
  type PlatformInput,
  PlatformRepository,
  type TemplateDefinition
} from "@wasl/core/Messaging"
import { type OtpReservation, type Verification } from "@wasl/core/Otp"
import { DateTime, Effect, Option } from "effect"
import { TestClock } from "effect/testing"

/** A fresh account holding `otpCredits`. */
export const accountWithCredits = (
  otpCredits: number,
  name = "Messaging"
): Effect.Effect<number, never, AccountRepository> =>
  AccountRepository.use((accounts) =>
    accounts.create({ name, plan: "business", webhookLimit: null, otpCredits }).pipe(Effect.map((a) => a.id))
  )

/** The account with the id (a defect when there is none). */
export const accountOf = (id: number): Effect.Effect<Account, never, AccountRepository> =>
  AccountRepository.use((accounts) => accounts.findById(id)).pipe(Effect.map(Option.getOrThrow))

/** The account's OTP credit balance. */
export const creditsOf = (id: number): Effect.Effect<number, never, AccountRepository> => Effect.map(accountOf(id), (account) => account.otp_credits)

/** Runs `effect` on a TestClock of its own, set to `time`. */
export const atTime = <A, E, R>(
  time: DateTime.Utc,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, Exclude<R, TestClock.TestClock>> =>
  Effect.andThen(TestClock.setTime(DateTime.toEpochMillis(time)), effect).pipe(Effect.provide(TestClock.layer()))

/** `time` moved by `ms` milliseconds. */
export const plusMillis = (time: DateTime.Utc, ms: number): DateTime.Utc => DateTime.add(time, { milliseconds: ms })

let sequence = 0
/** A record id (24 lowercase hex) unique in this process and unlikely to meet another run's. */
export const freshRecordId = (): string =>
  (Date.now().toString(16) + (sequence++).toString(16).padStart(6, "0") + Math.random().toString(16).slice(2))
    .slice(0, 24)
    .padEnd(24, "0")

/** An open reservation of the account's, opened at `openedAt` (not yet stored). */
export const reservationAt = (accountId: number, openedAt: DateTime.Utc, recipient = "966500000001"): OtpReservation => ({
  id: freshRecordId(),
  account_id: accountId,
  recipient,
  status: "open",
  created_at: openedAt,
  updated_at: openedAt
})

/** A sandbox sending number's fields. */
export const sandboxNumber = (
  name = "Support line"
): Omit<PlatformInput, "access_token"> & { readonly sealed_access_token: string | null } => ({
  name,
  display_phone_number: "+966 11 000 0000",
  provider: "sandbox" as const,
  phone_id: null,
  waba_id: null,
  sealed_access_token: null
})

/** An AUTHENTICATION template: what send-otp sends. */
export const otpTemplate: TemplateDefinition = {
  name: "login_code",
  category: "AUTHENTICATION",
  header: null,
  body: "Your code is {{1}}.",
  footer: null,
  buttons: [{ type: "OTP", text: "Copy code" }],
  code_expiration_minutes: 10
}

/** The create body of a broadcast of `template` on `platform`. */
export const broadcastInput = (platform: Platform, template: TemplateDefinition, name = "Broadcast"): BroadcastInput => ({
  name,
  language: "en_US",
  platform_id: platform.id,
  template,
  examples: { body: [], header: [], headerHandle: null }
})

/** The review of a broadcast approved at once (a sandbox number's). */
export const APPROVED_AT_ONCE: BroadcastReview = { status: "APPROVED", reason: null, external_id: null }

/** A fresh sandbox sending number of the account. */
export const newPlatform = (accountId: number, name?: string): Effect.Effect<Platform, never, PlatformRepository> =>
  PlatformRepository.use((repo) => repo.insert(accountId, sandboxNumber(name)))

/** A fresh approved broadcast of the account (an OTP template by default), on a fresh number. */
export const newBroadcast = (
  accountId: number,
  template: TemplateDefinition = otpTemplate
): Effect.Effect<Broadcast, never, PlatformRepository | BroadcastRepository> =>
  Effect.gen(function*() {
    const platform = yield* newPlatform(accountId)
    return yield* BroadcastRepository.use((repo) =>
      repo.insert(accountId, broadcastInput(platform, template), platform, APPROVED_AT_ONCE)
    )
  })

/** A well-formed code hash. */
export const HASH: string = "ab".repeat(32)

/** When the rows `verification` makes were created: 2031-02-03T04:05:06.789Z. */
export const VERIFICATION_T0: DateTime.Utc = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")

/** A live verification of the broadcast, created at VERIFICATION_T0 and expiring 10 minutes later, with `overrides`. */
export const verification = (broadcast: Broadcast, overrides: Partial<Verification> = {}): Verification => ({
  id: freshRecordId(),
  account_id: broadcast.account_id,
  broadcast_id: broadcast.id,
  contact_id: freshRecordId(),
  to: "+966500000001",
  code_hash: HASH,
  status: "live",
  attempts: 0,
  expires_at: plusMillis(VERIFICATION_T0, 600_000),
  created_at: VERIFICATION_T0,
  updated_at: VERIFICATION_T0,
  ...overrides
})

/** A template message of the broadcast, sent at `at`, with fresh ids. */
export const sentMessage = (broadcast: Broadcast, at: DateTime.Utc = VERIFICATION_T0): Message => ({
  _id: freshRecordId(),
  account_id: broadcast.account_id,
  provider_message_id: `wamid.sandbox.${freshRecordId()}`,
  contact_id: freshRecordId(),
  contact_channel_id: freshRecordId(),
  broadcast_id: broadcast.id,
  platform_id: broadcast.platform.id,
  platform_third_party_id: "966110000000",
  sender_third_party_id: "966110000000",
  receiver_third_party_id: "966500000001",
  direction: "outbound",
  type: "template",
  status: "sent",
  body: "Your code is ******.",
  content: null,
  context_id: null,
  attachments: [],
  error: null,
  sent_at: at,
  delivered_at: null,
  read_at: null,
  failed_at: null,
  created_at: at,
  updated_at: at
})
