/** The contract suite of the stores receiving WhatsApp needs (documented on `inboundStoresContract`). */
import { describe, expect, layer } from "@effect/vitest"
import { type AccountRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import {
  ContactChannelRepository,
  MessageStatusHoldRepository,
  PlatformRepository,
  type StatusReport
} from "@wasl/core/Messaging"
import { RecordRepository } from "@wasl/core/Records"
import { DateTime, Duration, Effect, Exit, type Layer, Option } from "effect"
import { accountWithCredits, freshRecordId, sandboxNumber } from "./otp-fixtures.ts"

/** What the layer under `inboundStoresContract` provides. */
export type InboundStoresContractServices =
  | PlatformRepository
  | ContactChannelRepository
  | MessageStatusHoldRepository
  | RecordRepository
  | AccountRepository
  | Transactor

const T0 = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")

let numbers = 0
/** Digits no other test uses: the lookup by provider number spans accounts, and tests share a database. */
const freshDigits = (): string => `9665${String(Date.now() % 10_000_000).padStart(7, "0")}${String(numbers++ % 100).padStart(2, "0")}`

const cloudNumber = (phoneId: string, display = `+${freshDigits()}`) => ({
  name: "Cloud line",
  display_phone_number: display,
  provider: "whatsapp_cloud" as const,
  phone_id: phoneId,
  waba_id: null,
  sealed_access_token: null
})

const newContact = (accountId: number) =>
  Effect.gen(function*() {
    const id = freshRecordId()
    yield* RecordRepository.use((repo) => repo.insert({ accountId, kind: "contact", id, custom: [], values: {} }))
    return id
  })

const contactChannels = (accountId: number, id: string) =>
  RecordRepository.use((repo) => repo.get({ accountId, kind: "contact", id, custom: [] })).pipe(
    Effect.map((found) => Option.getOrThrow(found).derived.channels)
  )

const delivered: StatusReport = { status: "delivered", at: T0, error: null }
const failed: StatusReport = {
  status: "failed",
  at: DateTime.add(T0, { seconds: 5 }),
  error: { code: 131026, title: "Message undeliverable", details: "The number is not on WhatsApp." }
}

/**
 * The contract of the stores receiving WhatsApp needs, over every implementation (memory,
 * PGlite, PostgreSQL, or yours):
 *
 * - `PlatformRepository.findByProviderNumber`: across accounts, the numbers whose `phone_id` is
 *   the id asked for, and the numbers without one (sandbox) whose display digits are; oldest first.
 * - `ContactChannelRepository`: `ensure` makes an entry once per contact, number and WhatsApp id
 *   (later calls answer the first entry, whatever id they offer); a contact's entries are listed
 *   oldest first, in its account only, and shown as its `channels` by the RecordRepository; they
 *   go with their contact; an entry of a contact the account does not have is refused (a defect).
 * - `MessageStatusHoldRepository`: a status held once per message and status (the first kept),
 *   taken (removed) per message, and found by its send's tracking string until then, in its
 *   account only.
 *
 * Every test makes its own accounts and numbers: the suite can share a database with others.
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides the ports under test, `RecordRepository`, `AccountRepository` and `Transactor`.
 */
export const inboundStoresContract = <E>(
  name: string,
  implementation: Layer.Layer<InboundStoresContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    describe("PlatformRepository.findByProviderNumber", () => {
      it.effect("finds cloud numbers by phone_id and sandbox numbers by their digits, across accounts, oldest first", () =>
        Effect.gen(function*() {
          const repo = yield* PlatformRepository
          const a = yield* accountWithCredits(0)
          const b = yield* accountWithCredits(0)
          const phoneId = freshDigits()
          const first = yield* repo.insert(a, cloudNumber(phoneId))
          const second = yield* repo.insert(b, cloudNumber(phoneId))
          expect(yield* repo.findByProviderNumber(phoneId)).toEqual([first, second])

          const digits = freshDigits()
          const sandbox = yield* repo.insert(a, { ...sandboxNumber(), display_phone_number: `+${digits.slice(0, 3)} ${digits.slice(3)}` })
          expect(yield* repo.findByProviderNumber(digits)).toEqual([sandbox])
          // A cloud number is named by its phone_id only, never by its display digits.
          const cloudDigits = freshDigits()
          yield* repo.insert(a, cloudNumber(freshDigits(), `+${cloudDigits}`))
          expect(yield* repo.findByProviderNumber(cloudDigits)).toEqual([])
          expect(yield* repo.findByProviderNumber(freshDigits())).toEqual([])
        }))
    })

    describe("ContactChannelRepository", () => {
      it.effect("makes one entry per contact, number and WhatsApp id, and the contact shows them oldest first", () =>
        Effect.gen(function*() {
          const repo = yield* ContactChannelRepository
          const account = yield* accountWithCredits(0)
          const contact = yield* newContact(account)
          const key = { accountId: account, contactId: contact, platformThirdPartyId: "1234567890", contactThirdPartyId: "966500000001" }
          const entry = yield* repo.ensure(key, freshRecordId(), T0)
          expect(entry).toEqual({
            _id: entry._id,
            platform_third_party_id: "1234567890",
            contact_third_party_id: "966500000001",
            created_at: T0
          })
          expect(yield* repo.ensure(key, freshRecordId(), DateTime.add(T0, { minutes: 1 }))).toEqual(entry)
          const later = yield* repo.ensure({ ...key, platformThirdPartyId: "555" }, freshRecordId(), DateTime.add(T0, { minutes: 2 }))
          expect(yield* repo.listOfContact(account, contact)).toEqual([entry, later])
          expect(yield* contactChannels(account, contact)).toEqual([entry, later])

          const other = yield* accountWithCredits(0)
          expect(yield* repo.listOfContact(other, contact)).toEqual([])
          expect(Exit.hasDies(yield* Effect.exit(repo.ensure({ ...key, accountId: other }, freshRecordId(), T0)))).toBe(true)
        }))

      it.effect("made twice in one transaction and another, answers the same entry", () =>
        Effect.gen(function*() {
          const repo = yield* ContactChannelRepository
          const transactor = yield* Transactor
          const account = yield* accountWithCredits(0)
          const contact = yield* newContact(account)
          const key = { accountId: account, contactId: contact, platformThirdPartyId: "p", contactThirdPartyId: "966500000002" }
          const [a, b] = yield* transactor.transaction(
            Effect.all([repo.ensure(key, freshRecordId(), T0), repo.ensure(key, freshRecordId(), T0)])
          )
          expect(b).toEqual(a)
          expect(yield* repo.ensure(key, freshRecordId(), T0)).toEqual(a)
        }))

      it.effect("removes a contact's entries with the contact", () =>
        Effect.gen(function*() {
          const repo = yield* ContactChannelRepository
          const account = yield* accountWithCredits(0)
          const contact = yield* newContact(account)
          const kept = yield* newContact(account)
          const key = { accountId: account, contactId: contact, platformThirdPartyId: "p", contactThirdPartyId: "966500000003" }
          yield* repo.ensure(key, freshRecordId(), T0)
          const other = yield* repo.ensure({ ...key, contactId: kept }, freshRecordId(), T0)
          expect(yield* RecordRepository.use((records) => records.delete({ accountId: account, kind: "contact", id: contact }))).toBe(true)
          expect(yield* repo.listOfContact(account, contact)).toEqual([])
          expect(yield* repo.listOfContact(account, kept)).toEqual([other])
        }))
    })

    describe("MessageStatusHoldRepository", () => {
      it.effect("holds each status of a message once (the first report), and takes them all once, in its account only", () =>
        Effect.gen(function*() {
          const repo = yield* MessageStatusHoldRepository
          const account = yield* accountWithCredits(0)
          const other = yield* accountWithCredits(0)
          const wamid = `wamid.${freshRecordId()}`
          yield* repo.hold(account, wamid, delivered, null)
          yield* repo.hold(account, wamid, { ...delivered, at: DateTime.add(T0, { minutes: 1 }) }, null)
          yield* repo.hold(account, wamid, failed, null)
          yield* repo.hold(other, wamid, delivered, null)
          yield* repo.hold(account, `${wamid}.other`, delivered, null)
          const taken = yield* repo.take(account, wamid)
          expect([...taken].sort((x, y) => x.status.localeCompare(y.status))).toEqual([delivered, failed])
          expect(yield* repo.take(account, wamid)).toEqual([])
          expect(yield* repo.take(other, wamid)).toEqual([delivered])
          expect(yield* repo.take(account, `${wamid}.other`)).toEqual([delivered])
        }))

      it.effect("takes the statuses of many messages at once, each once, in its account only", () =>
        Effect.gen(function*() {
          const repo = yield* MessageStatusHoldRepository
          const account = yield* accountWithCredits(0)
          const other = yield* accountWithCredits(0)
          const [a, b, none] = [`wamid.${freshRecordId()}`, `wamid.${freshRecordId()}`, `wamid.${freshRecordId()}`]
          yield* repo.hold(account, a, delivered, null)
          yield* repo.hold(account, a, failed, null)
          yield* repo.hold(account, b, delivered, null)
          yield* repo.hold(other, b, failed, null)
          const taken = yield* repo.takeMany(account, [a, b, none])
          expect([...taken.keys()].sort()).toEqual([a, b].sort())
          expect([...taken.get(a)!].sort((x, y) => x.status.localeCompare(y.status))).toEqual([delivered, failed])
          expect(taken.get(b)).toEqual([delivered])
          expect((yield* repo.takeMany(account, [a, b])).size).toBe(0)
          expect((yield* repo.takeMany(account, [])).size).toBe(0)
          expect(yield* repo.take(other, b)).toEqual([failed])
        }))

      it.effect("finds held statuses by the tracking string their send carried, in its account only, until taken", () =>
        Effect.gen(function*() {
          const repo = yield* MessageStatusHoldRepository
          const account = yield* accountWithCredits(0)
          const other = yield* accountWithCredits(0)
          const [a, b] = [`wamid.${freshRecordId()}`, `wamid.${freshRecordId()}`]
          const [ta, tb] = [`track-${freshRecordId()}`, `track-${freshRecordId()}`]
          yield* repo.hold(account, a, delivered, ta)
          yield* repo.hold(account, a, failed, ta)
          yield* repo.hold(account, `${a}.untracked`, delivered, null)
          yield* repo.hold(other, b, delivered, tb)
          const found = yield* repo.findTracked(account, [ta, tb, "track-none"])
          expect([...found]).toStrictEqual([[ta, a]])
          expect([...(yield* repo.findTracked(other, [ta, tb]))]).toStrictEqual([[tb, b]])
          expect((yield* repo.findTracked(account, [])).size).toBe(0)
          expect((yield* repo.take(account, a)).length).toBe(2)
          expect((yield* repo.findTracked(account, [ta])).size).toBe(0)
        }))
    })
  })
