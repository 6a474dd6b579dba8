/** The contract suite of the messaging stores (documented on `messagingRepositoriesContract`). */
import { describe, expect, layer } from "@effect/vitest"
import { type AccountRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import {
  type Broadcast,
  BroadcastRepository,
  type Message,
  MessageRepository,
  PlatformRepository,
  type TemplateDefinition,
  UNKNOWN_HEALTH
} from "@wasl/core/Messaging"
import { type Verification, VerificationRepository } from "@wasl/core/Otp"
import { DateTime, Duration, Effect, Exit, type Layer, Option } from "effect"
import {
  accountWithCredits,
  APPROVED_AT_ONCE,
  atTime,
  broadcastInput,
  freshRecordId,
  newBroadcast,
  newPlatform,
  otpTemplate,
  plusMillis,
  sandboxNumber,
  sentMessage,
  verification
} from "./otp-fixtures.ts"

/** What the layer under `messagingRepositoriesContract` provides. */
export type MessagingRepositoriesContractServices =
  | PlatformRepository
  | BroadcastRepository
  | MessageRepository
  | VerificationRepository
  | AccountRepository
  | Transactor

const T0 = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")

const cloudNumber = {
  name: "Cloud line",
  display_phone_number: "+966110000001",
  provider: "whatsapp_cloud" as const,
  phone_id: "1234567890",
  waba_id: "9876543210",
  sealed_access_token: "v1.bm9uY2U.c2VhbGVkLXRva2Vu"
}

const utilityTemplate: TemplateDefinition = {
  name: "order_update",
  category: "UTILITY",
  header: { format: "TEXT", text: "Your order" },
  body: "Order {{1}} has shipped.",
  footer: "Reply STOP to opt out",
  buttons: [
    { type: "URL", text: "Track", url: "https://example.com/track" },
    { type: "PHONE_NUMBER", text: "Call us", phone_number: "+966110000000" },
    { type: "COPY_CODE", text: "Copy offer" }
  ],
  code_expiration_minutes: null
}

/** An inbound message of the account, with every field a received message may carry. */
const inbound = (broadcast: Broadcast, providerMessageId: string, at: DateTime.Utc = T0): Message => ({
  ...sentMessage(broadcast, at),
  provider_message_id: providerMessageId,
  broadcast_id: null,
  sender_third_party_id: "966500000001",
  receiver_third_party_id: "966110000000",
  direction: "inbound",
  type: "image",
  status: "received",
  body: "the receipt",
  content: { note: "kept as given", nested: { n: 1 } },
  context_id: "wamid.replied-to",
  attachments: [{
    type: "image",
    media_id: "1234567890",
    mime_type: "image/jpeg",
    sha256: "abc=",
    filename: null,
    caption: "the receipt",
    size: null,
    state: "pending"
  }],
  sent_at: null
})

/** A fresh account with a broadcast, and `row` of that broadcast stored through `insert`. */
const storedIn = <T, R>(row: (broadcast: Broadcast) => T, insert: (row: T) => Effect.Effect<void, never, R>) =>
  Effect.gen(function*() {
    const id = yield* accountWithCredits(0)
    const broadcast = yield* newBroadcast(id)
    const stored = row(broadcast)
    yield* insert(stored)
    return { id, broadcast, stored }
  })

const storedMessage = storedIn(sentMessage, (m) => MessageRepository.use((repo) => repo.insert(m)))
const storedVerification = storedIn(verification, (v) => VerificationRepository.use((repo) => repo.insert(v)))

/**
 * The contract of the messaging stores — `PlatformRepository`, `BroadcastRepository`,
 * `MessageRepository` and `VerificationRepository` — over every implementation (memory, PGlite,
 * PostgreSQL, or yours). One describe block per port.
 *
 * - Sending numbers: stored with the sealed access token exactly as given (the store never sees
 *   the plaintext), stamped with the Clock's time, listed oldest first, in their account only.
 * - Broadcasts: stored with their template in one step and read back with the template and the
 *   sending number embedded, oldest first, in their account only; a sending number of another
 *   account is refused (a defect) and nothing is stored.
 * - Messages: read back as stored, in their account only; a second message with the same id, or
 *   one pointing at another account's broadcast, is refused (a defect).
 * - Verifications: read back as stored, in their account only; a recipient's live codes of a
 *   broadcast listed by creation time then id; an update writes status, attempts and updated_at
 *   only; read `forUpdate`, concurrent attempts are counted one after another.
 *
 * Every test makes its own accounts and never assumes an empty store: the suite can share a
 * database with others.
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`): it declares one
 * `describe` block named `name`, whose tests share one build of `implementation` and run without
 * Effect's test services (each test that needs a `TestClock` provides its own).
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides the four ports under test, `AccountRepository` and `Transactor`.
 */
export const messagingRepositoriesContract = <E>(
  name: string,
  implementation: Layer.Layer<MessagingRepositoriesContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    describe("PlatformRepository", () => {
      it.effect("stores a sending number with its sealed token as given, stamped with the Clock's time", () =>
        Effect.gen(function*() {
          const repo = yield* PlatformRepository
          const id = yield* accountWithCredits(0)
          const platform = yield* atTime(T0, repo.insert(id, cloudNumber))
          expect(platform.id).toBeGreaterThan(0)
          expect(platform).toEqual({
            ...cloudNumber,
            ...UNKNOWN_HEALTH,
            id: platform.id,
            account_id: id,
            created_at: T0,
            updated_at: T0
          })
          expect(DateTime.formatIso(platform.created_at)).toBe("2031-02-03T04:05:06.789Z")
          expect(yield* repo.findById(id, platform.id)).toEqual(Option.some(platform))
          const plain = yield* repo.insert(id, sandboxNumber())
          expect(plain.sealed_access_token).toBeNull()
          expect(plain.phone_id).toBeNull()
          expect(plain.provider).toBe("sandbox")
        }))

      it.effect("lists an account's sending numbers oldest first, and finds them in their account only", () =>
        Effect.gen(function*() {
          const repo = yield* PlatformRepository
          const id = yield* accountWithCredits(0)
          const other = yield* accountWithCredits(0)
          const first = yield* newPlatform(id, "first")
          const foreign = yield* newPlatform(other, "foreign")
          const second = yield* newPlatform(id, "second")
          expect(foreign.id).toBeGreaterThan(first.id)
          expect(second.id).toBeGreaterThan(foreign.id)
          expect(yield* repo.list(id)).toEqual([first, second])
          expect(yield* repo.list(other)).toEqual([foreign])
          expect(yield* repo.findById(id, foreign.id)).toEqual(Option.none())
          expect(yield* repo.findById(other, foreign.id)).toEqual(Option.some(foreign))
          expect(yield* repo.findById(id, 987_654_321)).toEqual(Option.none())
          expect(yield* repo.list(yield* accountWithCredits(0))).toEqual([])
        }))

      it.effect("changes a number's name and sealed token, each when given, in its account only", () =>
        Effect.gen(function*() {
          const repo = yield* PlatformRepository
          const id = yield* accountWithCredits(0)
          const platform = yield* atTime(T0, repo.insert(id, cloudNumber))
          const later = plusMillis(T0, 1_000)
          const renamed = yield* atTime(later, repo.update(id, platform.id, { name: "Renamed" }))
          expect(renamed).toEqual(Option.some({ ...platform, name: "Renamed", updated_at: later }))
          const retokened = yield* repo.update(id, platform.id, { sealed_access_token: "v1.bmV3.dG9rZW4" })
          expect(Option.getOrThrow(retokened)).toMatchObject({ name: "Renamed", sealed_access_token: "v1.bmV3.dG9rZW4" })
          const other = yield* accountWithCredits(0)
          expect(yield* repo.update(other, platform.id, { name: "Stolen" })).toEqual(Option.none())
          expect(Option.getOrThrow(yield* repo.findById(id, platform.id)).name).toBe("Renamed")
        }))

      it.effect("stores a number's health, and a quality update's tier only on the number of that WABA and display number", () =>
        Effect.gen(function*() {
          const repo = yield* PlatformRepository
          const id = yield* accountWithCredits(0)
          const waba = String(Date.now()).slice(-10)
          const platform = yield* repo.insert(id, { ...cloudNumber, waba_id: waba })
          const health = {
            verified_name: "Wasl Support",
            code_verification_status: "VERIFIED",
            quality_rating: "GREEN",
            messaging_limit_tier: "TIER_1K"
          }
          const stored = Option.getOrThrow(yield* repo.setHealth(id, platform.id, health))
          expect(stored).toMatchObject(health)
          expect(yield* repo.setHealth(yield* accountWithCredits(0), platform.id, health)).toEqual(Option.none())
          // Another account's number of another WABA with the same display number, and a sandbox number, stay.
          const other = yield* accountWithCredits(0)
          const foreign = yield* repo.insert(other, { ...cloudNumber, waba_id: `${waba}1` })
          const sandbox = yield* repo.insert(id, { ...sandboxNumber(), display_phone_number: cloudNumber.display_phone_number })
          const changed = yield* repo.setLimitTier(waba, "966110000001", "TIER_10K")
          expect(changed.map((p) => p.id)).toEqual([platform.id])
          expect(Option.getOrThrow(yield* repo.findById(id, platform.id))).toMatchObject({ ...health, messaging_limit_tier: "TIER_10K" })
          expect(Option.getOrThrow(yield* repo.findById(other, foreign.id)).messaging_limit_tier).toBeNull()
          expect(Option.getOrThrow(yield* repo.findById(id, sandbox.id)).messaging_limit_tier).toBeNull()
          expect(yield* repo.setLimitTier(waba, "966110000009", "TIER_10K")).toEqual([])
          // Registered by a second account too: whose the update is cannot be told, so neither changes.
          yield* repo.insert(other, { ...cloudNumber, waba_id: waba })
          expect(yield* repo.setLimitTier(waba, "966110000001", "TIER_100K")).toEqual([])
          expect(Option.getOrThrow(yield* repo.findById(id, platform.id)).messaging_limit_tier).toBe("TIER_10K")
        }))

      it.effect("removes a number with its broadcasts and their codes, keeping its messages unlinked, in its account only", () =>
        Effect.gen(function*() {
          const repo = yield* PlatformRepository
          const id = yield* accountWithCredits(0)
          const broadcast = yield* newBroadcast(id)
          const kept = yield* newBroadcast(id)
          const sent = sentMessage(broadcast)
          yield* MessageRepository.use((messages) => messages.insert(sent))
          const code = verification(broadcast)
          yield* VerificationRepository.use((verifications) => verifications.insert(code))
          const other = yield* accountWithCredits(0)
          expect(yield* repo.remove(other, broadcast.platform.id)).toBe(false)
          expect(yield* repo.remove(id, broadcast.platform.id)).toBe(true)
          expect(yield* repo.findById(id, broadcast.platform.id)).toEqual(Option.none())
          expect(yield* BroadcastRepository.use((b) => b.findById(id, broadcast.id))).toEqual(Option.none())
          expect(Option.isSome(yield* BroadcastRepository.use((b) => b.findById(id, kept.id)))).toBe(true)
          expect(yield* VerificationRepository.use((v) => v.findById(id, code.id))).toEqual(Option.none())
          const after = yield* MessageRepository.use((messages) => messages.findById(id, sent._id))
          expect(after).toEqual(Option.some({ ...sent, broadcast_id: null }))
          expect(yield* repo.remove(id, broadcast.platform.id)).toBe(false)
        }))
    })

    describe("BroadcastRepository", () => {
      it.effect("stores a broadcast with its template, and reads it back with template and sending number", () =>
        Effect.gen(function*() {
          const repo = yield* BroadcastRepository
          const id = yield* accountWithCredits(0)
          const platform = yield* atTime(T0, PlatformRepository.use((platforms) => platforms.insert(id, cloudNumber)))
          const later = plusMillis(T0, 1_000)
          const broadcast = yield* atTime(
            later,
            repo.insert(id, broadcastInput(platform, utilityTemplate, "Shipping"), platform, APPROVED_AT_ONCE)
          )
          expect(broadcast).toEqual({
            id: broadcast.id,
            account_id: id,
            name: "Shipping",
            language: "en_US",
            status: "APPROVED",
            reason: null,
            created_at: later,
            updated_at: later,
            platform,
            template: {
              ...utilityTemplate,
              id: broadcast.template.id,
              external_id: null,
              created_at: later,
              updated_at: later
            }
          })
          expect(broadcast.id).toBeGreaterThan(0)
          expect(broadcast.template.id).toBeGreaterThan(0)
          expect(yield* repo.findById(id, broadcast.id)).toEqual(Option.some(broadcast))

          const otp = yield* repo.insert(id, broadcastInput(platform, otpTemplate, "Login"), platform, {
            status: "PENDING",
            reason: null,
            external_id: null
          })
          expect(otp.status).toBe("PENDING")
          expect(otp.template).toMatchObject({ ...otpTemplate, external_id: null })
          expect(otp.template.id).not.toBe(broadcast.template.id)
        }))

      it.effect("lists an account's broadcasts oldest first, and finds them in their account only", () =>
        Effect.gen(function*() {
          const repo = yield* BroadcastRepository
          const id = yield* accountWithCredits(0)
          const other = yield* accountWithCredits(0)
          const first = yield* newBroadcast(id)
          const foreign = yield* newBroadcast(other)
          const second = yield* newBroadcast(id, utilityTemplate)
          expect(second.id).toBeGreaterThan(first.id)
          expect(yield* repo.list(id)).toEqual([first, second])
          expect(yield* repo.list(other)).toEqual([foreign])
          expect(yield* repo.findById(id, foreign.id)).toEqual(Option.none())
          expect(yield* repo.findById(id, 987_654_321)).toEqual(Option.none())
        }))

      it.effect("refuses a sending number of another account, as a defect, and stores nothing", () =>
        Effect.gen(function*() {
          const repo = yield* BroadcastRepository
          const id = yield* accountWithCredits(0)
          const other = yield* accountWithCredits(0)
          const foreign = yield* newPlatform(other)
          const exit = yield* Effect.exit(repo.insert(id, broadcastInput(foreign, otpTemplate), foreign, APPROVED_AT_ONCE))
          expect(Exit.hasDies(exit)).toBe(true)
          expect(yield* repo.list(id)).toEqual([])
          expect(yield* repo.list(other)).toEqual([])
        }))

      const submitted = (externalId: string) => ({ status: "PENDING" as const, reason: null, external_id: externalId })

      it.effect("applies a review only where it differs, in the broadcast's account only", () =>
        Effect.gen(function*() {
          const repo = yield* BroadcastRepository
          const id = yield* accountWithCredits(0)
          const other = yield* accountWithCredits(0)
          const platform = yield* atTime(T0, PlatformRepository.use((platforms) => platforms.insert(id, cloudNumber)))
          const broadcast = yield* atTime(
            T0,
            repo.insert(id, broadcastInput(platform, utilityTemplate), platform, submitted("1689556908129832"))
          )
          expect(broadcast).toMatchObject({ status: "PENDING", reason: null })
          expect(broadcast.template.external_id).toBe("1689556908129832")

          const later = plusMillis(T0, 5_000)
          const rejected = yield* atTime(later, repo.updateReview(id, broadcast.id, { status: "REJECTED", reason: "INVALID_FORMAT" }))
          expect(rejected).toEqual(Option.some({ ...broadcast, status: "REJECTED", reason: "INVALID_FORMAT", updated_at: later }))
          // The same review again changes nothing.
          expect(yield* repo.updateReview(id, broadcast.id, { status: "REJECTED", reason: "INVALID_FORMAT" })).toEqual(Option.none())
          // Another account's broadcast, or an unknown one, is not there.
          expect(yield* repo.updateReview(other, broadcast.id, { status: "APPROVED", reason: null })).toEqual(Option.none())
          expect(yield* repo.updateReview(id, 987_654_321, { status: "APPROVED", reason: null })).toEqual(Option.none())

          const latest = plusMillis(T0, 9_000)
          const recategorized = yield* atTime(latest, repo.updateReview(id, broadcast.id, { category: "MARKETING" }))
          expect(Option.getOrThrow(recategorized)).toEqual({
            ...Option.getOrThrow(rejected),
            template: { ...broadcast.template, category: "MARKETING", updated_at: latest }
          })
          expect(yield* repo.updateReview(id, broadcast.id, { category: "MARKETING" })).toEqual(Option.none())
          expect(yield* repo.findById(id, broadcast.id)).toEqual(recategorized)
        }))

      it.effect("applies one of two concurrent equal reviews, each in its own transaction", () =>
        Effect.gen(function*() {
          const repo = yield* BroadcastRepository
          const transactor = yield* Transactor
          const id = yield* accountWithCredits(0)
          const platform = yield* PlatformRepository.use((platforms) => platforms.insert(id, cloudNumber))
          const broadcast = yield* repo.insert(id, broadcastInput(platform, utilityTemplate), platform, submitted("1689556908120000"))
          const approve = transactor.transaction(repo.updateReview(id, broadcast.id, { status: "APPROVED", reason: null }))
          const results = yield* Effect.all([approve, approve, approve], { concurrency: 3 })
          expect(results.filter(Option.isSome).length).toBe(1)
          expect(Option.getOrThrow(yield* repo.findById(id, broadcast.id)).status).toBe("APPROVED")
        }))

      it.effect("finds the broadcasts of a template by Meta's id within its WhatsApp Business Account, and the accounts that submitted any", () =>
        Effect.gen(function*() {
          const repo = yield* BroadcastRepository
          const id = yield* accountWithCredits(0)
          const other = yield* accountWithCredits(0)
          const platform = yield* PlatformRepository.use((platforms) => platforms.insert(id, cloudNumber))
          const elsewhere = yield* PlatformRepository.use((platforms) => platforms.insert(other, { ...cloudNumber, waba_id: "5555555555" }))
          const mine = yield* repo.insert(id, broadcastInput(platform, utilityTemplate), platform, submitted("777000111"))
          yield* repo.insert(other, broadcastInput(elsewhere, utilityTemplate), elsewhere, submitted("777000222"))
          yield* newBroadcast(id, utilityTemplate)
          expect(yield* repo.findByExternalTemplate("9876543210", "777000111")).toEqual([mine])
          // The template of another WhatsApp Business Account is not found under this one.
          expect(yield* repo.findByExternalTemplate("9876543210", "777000222")).toEqual([])
          expect(yield* repo.findByExternalTemplate("5555555555", "777000111")).toEqual([])
          const accounts = yield* repo.accountsWithSubmittedTemplates
          expect(accounts).toContain(id)
          expect(accounts).toContain(other)
          expect([...accounts].sort((a, b) => a - b)).toEqual(accounts)
          const third = yield* accountWithCredits(0)
          yield* newBroadcast(third, utilityTemplate)
          expect(yield* repo.accountsWithSubmittedTemplates).not.toContain(third)
        }))
    })

    describe("MessageRepository", () => {
      it.effect("reads a message back as stored, in its account only", () =>
        Effect.gen(function*() {
          const repo = yield* MessageRepository
          const { id, stored: sent } = yield* storedMessage
          expect(yield* repo.findById(id, sent._id)).toEqual(Option.some(sent))
          const other = yield* accountWithCredits(0)
          expect(yield* repo.findById(other, sent._id)).toEqual(Option.none())
          expect(yield* repo.findById(id, freshRecordId())).toEqual(Option.none())
        }))

      it.effect("stores many messages in one call, each read back as stored", () =>
        Effect.gen(function*() {
          const repo = yield* MessageRepository
          const id = yield* accountWithCredits(0)
          const broadcast = yield* newBroadcast(id)
          const many = [
            sentMessage(broadcast),
            { ...sentMessage(broadcast), status: "delivered" as const, delivered_at: T0, body: "Hello Sara" },
            { ...sentMessage(broadcast), error: { code: 131026, title: "Undeliverable", details: null } }
          ]
          yield* repo.insertMany(many)
          yield* repo.insertMany([])
          for (const m of many) expect(yield* repo.findById(id, m._id)).toEqual(Option.some(m))
        }))

      it.effect("refuses, as defects, a second message with the same id and one on another account's broadcast", () =>
        Effect.gen(function*() {
          const repo = yield* MessageRepository
          const { id, broadcast, stored: sent } = yield* storedMessage
          const twice = yield* Effect.exit(repo.insert({ ...sent, body: "another body" }))
          expect(Exit.hasDies(twice)).toBe(true)
          expect(yield* repo.findById(id, sent._id)).toEqual(Option.some(sent))

          const other = yield* accountWithCredits(0)
          const stray = { ...sentMessage(broadcast), account_id: other }
          expect(Exit.hasDies(yield* Effect.exit(repo.insert(stray)))).toBe(true)
          expect(yield* repo.findById(other, stray._id)).toEqual(Option.none())
        }))

      it.effect("stores an inbound message with its media, content and context, and finds it by provider id in its account only", () =>
        Effect.gen(function*() {
          const repo = yield* MessageRepository
          const transactor = yield* Transactor
          const id = yield* accountWithCredits(0)
          const broadcast = yield* newBroadcast(id)
          const received = inbound(broadcast, `wamid.${freshRecordId()}`)
          yield* repo.insert(received)
          expect(yield* repo.findById(id, received._id)).toEqual(Option.some(received))
          expect(yield* repo.findByProviderId(id, received.provider_message_id)).toEqual(Option.some(received))
          expect(yield* transactor.transaction(repo.findByProviderId(id, received.provider_message_id)))
            .toEqual(Option.some(received))
          const other = yield* accountWithCredits(0)
          expect(yield* repo.findByProviderId(other, received.provider_message_id)).toEqual(Option.none())
          expect(yield* repo.findByProviderId(id, "wamid.unknown")).toEqual(Option.none())
        }))

      it.effect("refuses, as a defect, a second inbound message of the account with the same provider id", () =>
        Effect.gen(function*() {
          const repo = yield* MessageRepository
          const id = yield* accountWithCredits(0)
          const broadcast = yield* newBroadcast(id)
          const providerId = `wamid.${freshRecordId()}`
          yield* repo.insert(inbound(broadcast, providerId))
          expect(Exit.hasDies(yield* Effect.exit(repo.insert(inbound(broadcast, providerId))))).toBe(true)
          // Another account may hold the same id: Meta's ids are the account's own business.
          const other = yield* accountWithCredits(0)
          const otherBroadcast = yield* newBroadcast(other)
          yield* repo.insert(inbound(otherBroadcast, providerId))
        }))

      it.effect("updates a message's status, times, media and error, in its account only", () =>
        Effect.gen(function*() {
          const repo = yield* MessageRepository
          const { id, broadcast, stored: sent } = yield* storedMessage
          const later = DateTime.add(T0, { minutes: 1 })
          const failed: Message = {
            ...sent,
            status: "failed",
            error: { code: 131026, title: "Message undeliverable", details: null },
            delivered_at: later,
            failed_at: later,
            updated_at: later
          }
          yield* repo.update(failed)
          expect(yield* repo.findById(id, sent._id)).toEqual(Option.some(failed))

          const other = yield* accountWithCredits(0)
          yield* repo.update({ ...failed, account_id: other, body: "not here" })
          expect(yield* repo.findById(other, sent._id)).toEqual(Option.none())
          expect(yield* repo.findById(id, sent._id)).toEqual(Option.some(failed))

          const received = inbound(broadcast, `wamid.${freshRecordId()}`)
          yield* repo.insert(received)
          const stored: Message = {
            ...received,
            attachments: [{ ...received.attachments[0]!, size: 2048, state: "stored" }],
            status: "read",
            read_at: later,
            updated_at: later
          }
          yield* repo.update(stored)
          expect(yield* repo.findById(id, received._id)).toEqual(Option.some(stored))
        }))
    })

    describe("VerificationRepository", () => {
      it.effect("reads a verification back as stored, in its account only, also for update", () =>
        Effect.gen(function*() {
          const repo = yield* VerificationRepository
          const transactor = yield* Transactor
          const { id, stored: v } = yield* storedVerification
          expect(yield* repo.findById(id, v.id)).toEqual(Option.some(v))
          expect(yield* transactor.transaction(repo.findById(id, v.id, { forUpdate: true }))).toEqual(Option.some(v))
          const other = yield* accountWithCredits(0)
          expect(yield* repo.findById(other, v.id)).toEqual(Option.none())
          expect(yield* repo.findById(other, v.id, { forUpdate: true })).toEqual(Option.none())
          expect(yield* repo.findById(id, freshRecordId())).toEqual(Option.none())
        }))

      it.effect("lists a recipient's live codes of a broadcast by creation time, then id", () =>
        Effect.gen(function*() {
          const repo = yield* VerificationRepository
          const id = yield* accountWithCredits(0)
          const broadcast = yield* newBroadcast(id)
          const otherBroadcast = yield* newBroadcast(id)
          const at = (ms: number) => plusMillis(T0, ms)
          // Two with the same creation time, stored with the greater id first.
          const [low, high] = [freshRecordId(), freshRecordId()].sort()
          const tiedHigh = verification(broadcast, { id: high!, created_at: at(2_000) })
          const tiedLow = verification(broadcast, { id: low!, created_at: at(2_000) })
          const newest = verification(broadcast, { created_at: at(5_000) })
          const oldest = verification(broadcast, { created_at: at(1_000) })
          const stored = [
            newest,
            tiedHigh,
            oldest,
            tiedLow,
            verification(broadcast, { status: "approved" }),
            verification(broadcast, { status: "failed" }),
            verification(broadcast, { status: "expired" }),
            verification(broadcast, { status: "max_attempts_reached", attempts: 5 }),
            verification(broadcast, { to: "+966500000002" }),
            verification(broadcast, { to: "966500000001" }),
            verification(otherBroadcast)
          ]
          for (const v of stored) yield* repo.insert(v)
          expect(yield* repo.listLive(id, broadcast.id, "+966500000001")).toEqual([oldest, tiedLow, tiedHigh, newest])
          const other = yield* accountWithCredits(0)
          expect(yield* repo.listLive(other, broadcast.id, "+966500000001")).toEqual([])
          expect(yield* repo.listLive(id, 987_654_321, "+966500000001")).toEqual([])
        }))

      it.effect("updates status, attempts and updated_at only, and only in the verification's account", () =>
        Effect.gen(function*() {
          const repo = yield* VerificationRepository
          const { id, stored: v } = yield* storedVerification
          const later = plusMillis(T0, 30_000)
          yield* repo.update({
            ...v,
            status: "max_attempts_reached",
            attempts: 5,
            updated_at: later,
            code_hash: "cd".repeat(32),
            expires_at: later,
            created_at: later,
            to: "+966599999999"
          })
          const updated: Verification = { ...v, status: "max_attempts_reached", attempts: 5, updated_at: later }
          expect(yield* repo.findById(id, v.id)).toEqual(Option.some(updated))

          const other = yield* accountWithCredits(0)
          yield* repo.update({ ...v, account_id: other, status: "approved" })
          yield* repo.update({ ...v, id: freshRecordId(), status: "approved" })
          expect(yield* repo.findById(id, v.id)).toEqual(Option.some(updated))
        }))

      it.effect("counts concurrent attempts one after another when read for update", () =>
        Effect.gen(function*() {
          const repo = yield* VerificationRepository
          const transactor = yield* Transactor
          const { id, stored: v } = yield* storedVerification
          const attempt = transactor.transaction(Effect.gen(function*() {
            const current = Option.getOrThrow(yield* repo.findById(id, v.id, { forUpdate: true }))
            // Long enough for the others to read the row, were it not locked.
            yield* Effect.sleep(Duration.millis(10))
            yield* repo.update({ ...current, attempts: current.attempts + 1 })
          }))
          yield* Effect.all(Array.from({ length: 5 }, () => attempt), { concurrency: "unbounded" })
          expect(Option.getOrThrow(yield* repo.findById(id, v.id)).attempts).toBe(5)
        }))
    })
  })
