/**
 * The worker's media fetch on the memory ports and on PGlite and PostgreSQL, against the fake Cloud
 * API: pending files of received messages fetched with the number's token into the media store and
 * marked stored with their size; too large or gone ones failed; a channel that cannot answer now
 * tried again after its Retry-After, then given up after the tries; a change made to the message
 * meanwhile kept; each account's files kept apart.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { MessagingProviderLive } from "@wasl/adapters/Messaging"
import { MigrationsLive, ServicesPg } from "@wasl/adapters/Postgres"
import { MediaStoreMemory, RepositoriesMemory } from "@wasl/adapters/memory"
import { type FakeCloudApi, postgresTestEnabled, startFakeCloudApi, TestDatabase } from "@wasl/adapters/testing"
import { AccountRepository } from "@wasl/core/Accounts"
import { SecretBox } from "@wasl/core/Auth"
import { type WaslRepositories } from "@wasl/core/Deployment"
import {
  type Attachment,
  MediaStore,
  mediaKey,
  type Message,
  MessageRepository,
  type MessagingProvider,
  PlatformRepository
} from "@wasl/core/Messaging"
import { Clock, DateTime, Effect, Layer, Option } from "effect"
import { SecureRandom } from "effect/crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeMediaFetchRound } from "../src/index.ts"

const TOKEN = "EAAG-media-token"
const T0 = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")
let seq = 0
const hex24 = () => (++seq).toString(16).padStart(24, "0")

let api: FakeCloudApi
beforeAll(async () => {
  api = await startFakeCloudApi(TOKEN)
})
afterAll(async () => {
  await api.close()
})

const others = () =>
  Layer.mergeAll(
    SecretBox.layerAesGcm(new Uint8Array(32).fill(9)),
    Layer.suspend(() => MessagingProviderLive({ sandboxOutbox: join(mkdtempSync(join(tmpdir(), "wasl-media-")), "o.jsonl"), graphUrl: api.url })),
    MediaStoreMemory
  ).pipe(Layer.provide(SecureRandom.layerWebCrypto))

type Services = WaslRepositories | SecretBox | MediaStore | MessagingProvider

const variants: ReadonlyArray<{ name: string; enabled: boolean; layer: () => Layer.Layer<Services, unknown> }> = [
  { name: "in memory", enabled: true, layer: () => Layer.merge(RepositoriesMemory, others()).pipe(Layer.provideMerge(SecureRandom.layerWebCrypto)) },
  {
    name: "on PGlite",
    enabled: true,
    layer: () => Layer.merge(ServicesPg, others()).pipe(Layer.provideMerge(MigrationsLive), Layer.provideMerge(TestDatabase.pglite))
  },
  {
    name: "on PostgreSQL",
    enabled: postgresTestEnabled(),
    layer: () => Layer.merge(ServicesPg, others()).pipe(Layer.provideMerge(MigrationsLive), Layer.provideMerge(TestDatabase.postgres))
  }
]

const pending = (media_id: string, type: Attachment["type"] = "image"): Attachment => ({
  type,
  media_id,
  mime_type: "image/jpeg",
  sha256: null,
  filename: null,
  caption: null,
  size: null,
  state: "pending"
})

/** A fresh account with a Cloud API number (its token sealed) and a received message with these attachments. */
const receivedWith = (attachments: ReadonlyArray<Attachment>, token = TOKEN) =>
  Effect.gen(function*() {
    const account = yield* AccountRepository.use((a) => a.create({ name: "media", plan: "business", webhookLimit: null, otpCredits: 0 }))
    const sealed = yield* SecretBox.use((box) => box.seal(token))
    const platform = yield* PlatformRepository.use((repo) =>
      repo.insert(account.id, {
        name: "Cloud",
        display_phone_number: "+1 555 000 1111",
        provider: "whatsapp_cloud",
        phone_id: "106540352242922",
        waba_id: "1",
        sealed_access_token: sealed
      })
    )
    const message: Message = {
      _id: hex24(),
      account_id: account.id,
      provider_message_id: `wamid.M${hex24()}`,
      contact_id: hex24(),
      contact_channel_id: hex24(),
      broadcast_id: null,
      platform_id: platform.id,
      platform_third_party_id: "106540352242922",
      sender_third_party_id: "966500000001",
      receiver_third_party_id: "15550001111",
      direction: "inbound",
      type: attachments[0]?.type ?? "text",
      status: "received",
      body: "",
      content: null,
      context_id: null,
      attachments,
      error: null,
      sent_at: null,
      delivered_at: null,
      read_at: null,
      failed_at: null,
      created_at: T0,
      updated_at: T0
    }
    yield* MessageRepository.use((repo) => repo.insert(message))
    return message
  })

/** `clock`, `millis` ahead. */
const later = (clock: Clock.Clock, millis: number): Clock.Clock => ({
  currentTimeMillisUnsafe: () => clock.currentTimeMillisUnsafe() + millis,
  currentTimeMillis: Effect.map(clock.currentTimeMillis, (t) => t + millis),
  currentTimeNanosUnsafe: () => clock.currentTimeNanosUnsafe() + BigInt(millis) * 1_000_000n,
  currentTimeNanos: Effect.map(clock.currentTimeNanos, (t) => t + BigInt(millis) * 1_000_000n),
  monotonicTimeNanosUnsafe: () => clock.monotonicTimeNanosUnsafe(),
  monotonicTimeNanos: clock.monotonicTimeNanos,
  sleep: (duration) => clock.sleep(duration)
})

const stored = (m: Message) => Effect.map(MessageRepository.use((repo) => repo.findById(m.account_id, m._id)), Option.getOrThrow)

for (const variant of variants) {
  describe.runIf(variant.enabled)(`media fetch ${variant.name}`, () => {
    it.layer(variant.layer(), { timeout: 60_000 })((it) => {
      it.effect("stores fetched files with their size, fails those too large or gone, and keeps a change made meanwhile", () =>
        Effect.gen(function*() {
          api.media.set("img-1", { bytes: new Uint8Array([1, 2, 3, 4]), mimeType: "image/jpeg" })
          api.media.set("big-1", { bytes: new Uint8Array(64), mimeType: "video/mp4" })
          const message = yield* receivedWith([pending("img-1"), pending("big-1", "video"), pending("gone-1")])
          // The team reads the message before the files are in: its status must survive the fetch.
          yield* MessageRepository.use((repo) => repo.update({ ...message, status: "read", read_at: T0 }))
          const round = yield* makeMediaFetchRound({ maxBytes: 32, batch: 1_000 })
          yield* round
          const after = yield* stored(message)
          expect(after.status).toBe("read")
          expect(after.attachments.map((a) => [a.state, a.size])).toEqual([["stored", 4], ["failed", null], ["failed", null]])
          const file = yield* MediaStore.use((s) => s.get(message.account_id, mediaKey(message._id, 0)))
          expect(file).toEqual(Option.some({ bytes: new Uint8Array([1, 2, 3, 4]), mimeType: "image/jpeg" }))
          const download = api.calls.find((c) => c.path.startsWith("/whatsapp_business/attachments/?mid=img-1"))
          expect(download?.authorization).toBe(`Bearer ${TOKEN}`)
          // Settled: a second round has nothing of it to fetch.
          const before = api.calls.length
          yield* round
          expect(api.calls.filter((c, i) => i >= before && c.path.includes("img-1"))).toEqual([])
          // Another account reads none of its files.
          expect(yield* MediaStore.use((s) => s.get(message.account_id + 1, mediaKey(message._id, 0)))).toEqual(Option.none())
        }))

      it.effect("tries again after the channel's Retry-After, and gives up after the tries", () =>
        Effect.gen(function*() {
          const mediaId = `later-${hex24()}`
          api.media.set(mediaId, { bytes: new Uint8Array([5]), mimeType: "image/png" })
          // A token the API refuses (190): the channel cannot answer now, a 30-second Retry-After.
          const message = yield* receivedWith([pending(mediaId)], "EAAG-expired")
          const round = yield* makeMediaFetchRound({ batch: 1_000, maxAttempts: 2 })
          const tries = () => api.calls.filter((c) => c.path.startsWith(`/v21.0/${mediaId}?`)).length
          yield* round
          expect(tries()).toBe(1)
          expect((yield* stored(message)).attachments[0]!.state).toBe("pending")
          yield* round
          expect(tries()).toBe(1)
          // 31 seconds on, for the round only: the test clock stays put, as the database pool runs on it.
          const clock = yield* Clock.Clock
          yield* round.pipe(Effect.provideService(Clock.Clock, later(clock, 31_000)))
          expect(tries()).toBe(2)
          expect((yield* stored(message)).attachments[0]!.state).toBe("failed")
        }))
    })
  })
}
