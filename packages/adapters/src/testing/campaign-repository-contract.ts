/** The contract suite of `CampaignRepository` (documented on `campaignRepositoryContract`). */
import { expect, layer } from "@effect/vitest"
import type { AccountRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import {
  type BroadcastRepository,
  type Campaign,
  CampaignRepository,
  MessageRepository,
  newCampaign,
  type NewRecipient,
  type PlatformRepository
} from "@wasl/core/Messaging"
import { DateTime, Duration, Effect, type Layer, Option } from "effect"
import { accountWithCredits, freshRecordId, newBroadcast, sentMessage } from "./otp-fixtures.ts"

/** What the layer under `campaignRepositoryContract` provides. */
export type CampaignRepositoryContractServices =
  | CampaignRepository
  | MessageRepository
  | BroadcastRepository
  | PlatformRepository
  | AccountRepository
  | Transactor

const T0 = DateTime.makeUnsafe("2031-06-01T08:00:00.000Z")
const at = (minutes: number) => DateTime.add(T0, { minutes })

/** A fresh account, a broadcast on a new sending number, and a queued campaign of it (not stored). */
const fixture = (overrides: Partial<Campaign> = {}) =>
  Effect.gen(function*() {
    const accountId = yield* accountWithCredits(0)
    const broadcast = yield* newBroadcast(accountId)
    const campaign: Campaign = {
      ...newCampaign({
        accountId,
        id: freshRecordId(),
        name: "Spring sale",
        broadcastId: broadcast.id,
        userId: 7,
        audience: { _tag: "Query", query: { search: "ali", complex_filters: "[]" } },
        parameters: { body: ["A-1", { property: "firstname" }], header: [] },
        scheduledAt: null,
        createdAt: T0
      }),
      ...overrides
    }
    return { accountId, broadcast, campaign }
  })

const pending = (n: number, from = 0): ReadonlyArray<NewRecipient> =>
  Array.from({ length: n }, (_, i) => ({
    contactId: freshRecordId(),
    seq: from + i,
    digits: `96650000${String(from + i).padStart(4, "0")}`,
    parameters: { body: ["A-1", `Name ${from + i}`], header: [] },
    status: "pending" as const,
    reason: null
  }))

/** Claims due campaigns until the one asked for comes (others' campaigns may share the store). */
const claimUntil = (id: string, now: DateTime.Utc, leaseUntil: DateTime.Utc) =>
  Effect.gen(function*() {
    const repo = yield* CampaignRepository
    for (let i = 0; i < 1_000; i++) {
      const claimed = yield* repo.claimDue(now, leaseUntil)
      if (Option.isNone(claimed)) return Option.none<Campaign>()
      if (claimed.value.id === id) return claimed
    }
    return Option.none<Campaign>()
  })

/**
 * The `CampaignRepository` contract: the same tests over every implementation (memory, PGlite,
 * PostgreSQL, or yours).
 *
 * - A campaign reads back as stored (audience, variables, every timestamp), in its account only;
 *   `update` stores its status, reason, progress, lease and times; the account's campaigns are
 *   listed newest first, a page at a time, with their total.
 * - Recipients are written once per contact (a second write of one leaves it as it is), listed in
 *   audience order with their message's status, claimed from `pending` only, first in order, and
 *   never twice even when claims race; a claimed one is settled once (sent with its message,
 *   failed with its reason, or back to pending), and `sending` reads those left `sending`.
 * - The counts come from the recipients and their messages' statuses.
 * - `claimDue` takes waiting campaigns only (not ended, a schedule and a `resumeAt` come, no live
 *   lease), oldest turn first, leases them and answers them as they were before.
 * - `activeOnPlatform` says whether a campaign that has not ended sends through a number.
 *
 * Every test makes its own accounts and never assumes an empty store. Call it at the top level of
 * a vitest test file (it uses `@effect/vitest`).
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `CampaignRepository` (under test) and the ports the suite uses to
 * make accounts, broadcasts and messages.
 */
export const campaignRepositoryContract = <E>(
  name: string,
  implementation: Layer.Layer<CampaignRepositoryContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("reads a campaign back as stored, in its account only, and stores its changes", () =>
      Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const { accountId, campaign } = yield* fixture({ scheduledAt: at(30), status: "scheduled" })
        yield* repo.insert(campaign)
        expect(Option.getOrThrow(yield* repo.get(accountId, campaign.id))).toStrictEqual(campaign)
        expect(Option.isNone(yield* repo.get(accountId + 1, campaign.id))).toBe(true)
        const changed: Campaign = {
          ...campaign,
          status: "paused",
          reason: "The monthly message allowance is used up.",
          audienceAfter: "opaque position",
          audienceCount: 12,
          audienceResolved: true,
          resumeAt: at(5),
          leaseUntil: at(2),
          turnAt: at(1),
          startedAt: at(1),
          updatedAt: at(1)
        }
        yield* repo.update(changed)
        expect(Option.getOrThrow(yield* repo.get(accountId, campaign.id))).toStrictEqual(changed)
        const held = yield* Transactor.use((t) => t.transaction(repo.hold(accountId, campaign.id)))
        expect(Option.getOrThrow(held)).toStrictEqual(changed)
      }))

    it.effect("lists the account's campaigns newest first, a page at a time", () =>
      Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const { accountId, campaign } = yield* fixture()
        const ids: Array<string> = []
        for (let i = 0; i < 3; i++) {
          const id = freshRecordId()
          ids.push(id)
          yield* repo.insert({ ...campaign, id, createdAt: at(i) })
        }
        const first = yield* repo.list(accountId, 1, 2)
        expect(first.total).toBe(3)
        expect(first.rows.map((c) => c.id)).toStrictEqual([ids[2], ids[1]])
        expect((yield* repo.list(accountId, 2, 2)).rows.map((c) => c.id)).toStrictEqual([ids[0]])
        expect((yield* repo.list(accountId + 1, 1, 15)).total).toBe(0)
      }))

    it.effect("writes each contact once, lists recipients in audience order, claims pending ones first in order", () =>
      Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const { accountId, campaign } = yield* fixture()
        yield* repo.insert(campaign)
        const written = pending(5)
        yield* repo.addRecipients(accountId, campaign.id, [...written.slice(2)].reverse(), T0)
        yield* repo.addRecipients(accountId, campaign.id, [
          ...written.slice(0, 2),
          { ...written[2]!, status: "skipped", reason: "written twice" }
        ], T0)
        yield* repo.addRecipients(accountId, campaign.id, [
          { contactId: freshRecordId(), seq: 5, digits: null, parameters: null, status: "skipped", reason: "No number." }
        ], T0)
        const listed = yield* repo.listRecipients(accountId, campaign.id, 1, 15)
        expect(listed.total).toBe(6)
        expect(listed.rows.map((r) => r.seq)).toStrictEqual([0, 1, 2, 3, 4, 5])
        expect(listed.rows[2]!.status).toBe("pending")
        expect(listed.rows[0]!.parameters).toStrictEqual({ body: ["A-1", "Name 0"], header: [] })
        expect(listed.rows[5]).toMatchObject({ status: "skipped", reason: "No number.", digits: null })
        expect((yield* repo.listRecipients(accountId, campaign.id, 2, 4)).rows.map((r) => r.seq)).toStrictEqual([4, 5])
        expect((yield* repo.listRecipients(accountId + 1, campaign.id, 1, 15)).total).toBe(0)

        const claimed = yield* repo.claimRecipients(accountId, campaign.id, 2, at(1))
        expect(claimed.map((r) => r.contactId)).toStrictEqual([written[0]!.contactId, written[1]!.contactId])
        expect(claimed.every((r) => r.status === "sending")).toBe(true)
        expect(yield* repo.unsettled(accountId, campaign.id)).toBe(5)
        expect((yield* repo.claimRecipients(accountId, campaign.id, 10, at(1), 4)).map((r) => r.seq)).toStrictEqual([4])
        const rest = yield* repo.claimRecipients(accountId, campaign.id, 10, at(1))
        expect(rest.map((r) => r.seq)).toStrictEqual([2, 3])
        expect(yield* repo.claimRecipients(accountId, campaign.id, 10, at(1))).toStrictEqual([])
      }))

    it.effect("never claims a recipient twice when claims race, each in its own transaction", () =>
      Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const transactor = yield* Transactor
        const { accountId, campaign } = yield* fixture()
        yield* repo.insert(campaign)
        yield* repo.addRecipients(accountId, campaign.id, pending(60), T0)
        const claims = yield* Effect.all(
          Array.from({ length: 12 }, () => transactor.transaction(repo.claimRecipients(accountId, campaign.id, 7, T0))),
          { concurrency: "unbounded" }
        )
        const ids = claims.flat().map((r) => r.contactId)
        expect(ids).toHaveLength(60)
        expect(new Set(ids).size).toBe(60)
      }))

    it.effect("settles a claimed recipient once, reads those left sending, and counts by the messages' statuses", () =>
      Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const { accountId, broadcast, campaign } = yield* fixture()
        yield* repo.insert(campaign)
        yield* repo.addRecipients(accountId, campaign.id, [
          ...pending(6),
          { contactId: freshRecordId(), seq: 6, digits: null, parameters: null, status: "skipped", reason: "No number." }
        ], T0)
        const claimed = yield* repo.claimRecipients(accountId, campaign.id, 6, T0)
        const messages = yield* MessageRepository
        const statuses = ["sent", "delivered", "read", "failed"] as const
        for (const [i, status] of statuses.entries()) {
          const message = { ...sentMessage(broadcast), status, contact_id: claimed[i]!.contactId }
          yield* messages.insert(message)
          const settle = repo.settleRecipient(accountId, campaign.id, claimed[i]!.contactId, { _tag: "Sent", messageId: message._id }, at(1))
          expect(yield* settle).toBe(true)
          expect(yield* settle).toBe(false)
        }
        expect(
          yield* repo.settleRecipient(accountId, campaign.id, claimed[4]!.contactId, { _tag: "Failed", reason: "Refused." }, at(1))
        ).toBe(true)
        const left = yield* repo.sending(accountId, campaign.id)
        expect(left.map((r) => [r.contactId, r.status, r.seq])).toStrictEqual([[claimed[5]!.contactId, "sending", 5]])
        expect(DateTime.toEpochMillis(left[0]!.updatedAt)).toBe(DateTime.toEpochMillis(T0))
        expect(yield* repo.sending(accountId + 1, campaign.id)).toStrictEqual([])
        expect(
          yield* repo.settleRecipient(accountId, campaign.id, claimed[5]!.contactId, { _tag: "Failed", reason: "Stopped." }, at(2))
        ).toBe(true)
        expect(yield* repo.sending(accountId, campaign.id)).toStrictEqual([])
        expect(yield* repo.unsettled(accountId, campaign.id)).toBe(0)

        const counts = yield* repo.counts(accountId, [campaign.id, freshRecordId()])
        expect(counts.size).toBe(1)
        expect(counts.get(campaign.id)).toStrictEqual({ recipients: 7, sent: 4, delivered: 2, read: 1, failed: 3, skipped: 1 })
        expect((yield* repo.counts(accountId + 1, [campaign.id])).size).toBe(0)
        const listed = (yield* repo.listRecipients(accountId, campaign.id, 1, 15)).rows
        expect(listed.map((r) => r.messageStatus)).toStrictEqual(["sent", "delivered", "read", "failed", null, null, null])
        expect(listed[5]).toMatchObject({ status: "failed", reason: "Stopped.", messageId: null })

        // Many marked sent at once, only those sending.
        yield* repo.addRecipients(accountId, campaign.id, pending(2, 10), T0)
        const both = yield* repo.claimRecipients(accountId, campaign.id, 2, at(3))
        const messageIds = [freshRecordId(), freshRecordId()]
        const marks = both.map((r, i) => ({ contactId: r.contactId, messageId: messageIds[i]! }))
        expect(yield* repo.markSent(accountId, campaign.id, [...marks, { contactId: claimed[0]!.contactId, messageId: "x" }], at(3))).toBe(2)
        expect(yield* repo.markSent(accountId, campaign.id, marks, at(3))).toBe(0)
        const marked = (yield* repo.listRecipients(accountId, campaign.id, 1, 15)).rows.filter((r) => r.seq >= 10)
        expect(marked.map((r) => [r.status, r.messageId])).toStrictEqual([["sent", messageIds[0]], ["sent", messageIds[1]]])

        // Back to pending: claimed again later.
        yield* repo.addRecipients(accountId, campaign.id, pending(1, 7), T0)
        const [again] = yield* repo.claimRecipients(accountId, campaign.id, 1, at(3))
        expect(yield* repo.settleRecipient(accountId, campaign.id, again!.contactId, { _tag: "Pending" }, at(3))).toBe(true)
        expect((yield* repo.claimRecipients(accountId, campaign.id, 1, at(4)))[0]!.contactId).toBe(again!.contactId)
      }))

    it.effect("claims waiting campaigns only, oldest turn first, leased, answered as they were before", () =>
      Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const { accountId, campaign } = yield* fixture()
        const now = at(60)
        const lease = at(62)
        const waiting = { ...campaign, id: freshRecordId(), turnAt: at(-10) }
        const later = { ...campaign, id: freshRecordId(), turnAt: at(-5), status: "running" as const }
        const notYet = { ...campaign, id: freshRecordId(), status: "scheduled" as const, scheduledAt: at(61) }
        const resting = { ...campaign, id: freshRecordId(), status: "running" as const, resumeAt: at(61) }
        const held = { ...campaign, id: freshRecordId(), status: "running" as const, leaseUntil: at(61) }
        const lapsed = { ...campaign, id: freshRecordId(), status: "running" as const, leaseUntil: at(59), turnAt: at(-1) }
        const ended = { ...campaign, id: freshRecordId(), status: "completed" as const, turnAt: at(-20) }
        for (const c of [waiting, later, notYet, resting, held, lapsed, ended]) yield* repo.insert(c)

        const first = Option.getOrThrow(yield* claimUntil(waiting.id, now, lease))
        expect(first.leaseUntil).toBeNull()
        expect(Option.getOrThrow(yield* repo.get(accountId, waiting.id)).leaseUntil).toStrictEqual(lease)
        expect(Option.getOrThrow(yield* repo.get(accountId, later.id)).leaseUntil).toBeNull()
        expect(Option.getOrThrow(yield* claimUntil(later.id, now, lease)).status).toBe("running")
        // A lease that ran out is taken over, answered with it: its worker stopped.
        expect(Option.getOrThrow(yield* claimUntil(lapsed.id, now, lease)).leaseUntil).toStrictEqual(at(59))
        for (const c of [notYet, resting, held, ended]) {
          expect(Option.isNone(yield* claimUntil(c.id, now, lease))).toBe(true)
        }
        // Their time come, the scheduled one and the resting one wait no more.
        expect(Option.isSome(yield* claimUntil(notYet.id, at(63), at(65)))).toBe(true)
        expect(Option.isSome(yield* claimUntil(resting.id, at(63), at(65)))).toBe(true)
      }))

    it.effect("says whether a campaign that has not ended sends through a sending number", () =>
      Effect.gen(function*() {
        const repo = yield* CampaignRepository
        const { accountId, broadcast, campaign } = yield* fixture({ status: "completed" })
        yield* repo.insert(campaign)
        expect(yield* repo.activeOnPlatform(accountId, broadcast.platform.id)).toBe(false)
        yield* repo.insert({ ...campaign, id: freshRecordId(), status: "paused" })
        expect(yield* repo.activeOnPlatform(accountId, broadcast.platform.id)).toBe(true)
        expect(yield* repo.activeOnPlatform(accountId + 1, broadcast.platform.id)).toBe(false)
        expect(yield* repo.activeOnPlatform(accountId, broadcast.platform.id + 1)).toBe(false)
      }))
  })
