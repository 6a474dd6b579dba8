import {
  type Campaign,
  type CampaignRecipient,
  CampaignRepository,
  campaignEnded,
  countRecipients,
  type NewRecipient,
  type RecipientOutcome
} from "@wasl/core/Messaging"
import { DateTime, Effect, Layer, Option } from "effect"
import { requireAccount, withMessaging } from "./messaging-constraints.ts"
import { accountKey } from "./messaging-tables.ts"
import { mapSet, type MemoryState, MemoryStore, readStore, updateStore } from "./store.ts"

const NO_RECIPIENTS: ReadonlyMap<string, CampaignRecipient> = new Map()

/** The campaign's recipients in audience order, each with its message's status as it is now. */
const recipientsOf = (state: MemoryState, accountId: number, campaignId: string): ReadonlyArray<CampaignRecipient> =>
  [...(state.messaging.campaignRecipients.get(accountKey(accountId, campaignId)) ?? NO_RECIPIENTS).values()]
    .map((r) => ({
      ...r,
      messageStatus: r.messageId === null
        ? null
        : state.messaging.messages.get(accountKey(accountId, r.messageId))?.status ?? null
    }))
    .sort((a, b) => a.seq - b.seq)

/** The state with the campaign's recipients replaced. */
const withRecipients = (
  state: MemoryState,
  accountId: number,
  campaignId: string,
  rows: ReadonlyMap<string, CampaignRecipient>
): MemoryState =>
  withMessaging(state, {
    ...state.messaging,
    campaignRecipients: mapSet(state.messaging.campaignRecipients, accountKey(accountId, campaignId), rows)
  })

const statusOf = (outcome: RecipientOutcome) =>
  outcome._tag === "Sent" ? "sent" as const : outcome._tag === "Failed" ? "failed" as const : "pending" as const

/**
 * Campaigns in the memory store: same semantics as CampaignRepositoryPg. Every method is one
 * atomic change of the store, and the store runs one transaction at a time, so `hold` needs no
 * lock of its own and two claims never take one recipient.
 */
export const CampaignRepositoryMemory: Layer.Layer<CampaignRepository, never, MemoryStore> = Layer.effect(
  CampaignRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    const get = (accountId: number, id: string) =>
      readStore(store, (state) => Option.fromNullishOr(state.messaging.campaigns.get(accountKey(accountId, id))))

    const update = (campaign: Campaign) =>
      updateStore(store, (state) => {
        const key = accountKey(campaign.accountId, campaign.id)
        if (!state.messaging.campaigns.has(key)) return [undefined, state] as const
        return [undefined, withMessaging(state, { ...state.messaging, campaigns: mapSet(state.messaging.campaigns, key, campaign) })] as const
      })

    const changeRecipients = <A>(
      accountId: number,
      campaignId: string,
      f: (rows: Map<string, CampaignRecipient>) => A
    ) =>
      updateStore(store, (state) => {
        const rows = new Map(state.messaging.campaignRecipients.get(accountKey(accountId, campaignId)) ?? NO_RECIPIENTS)
        const result = f(rows)
        return [result, withRecipients(state, accountId, campaignId, rows)] as const
      })

    return CampaignRepository.of({
      insert: (campaign) =>
        updateStore(store, (state) => {
          requireAccount(state, campaign.accountId, "campaigns")
          const key = accountKey(campaign.accountId, campaign.id)
          if (state.messaging.campaigns.has(key)) throw new Error(`duplicate key value violates "campaigns_pkey": ${key}`)
          return [undefined, withMessaging(state, { ...state.messaging, campaigns: mapSet(state.messaging.campaigns, key, campaign) })] as const
        }),
      get,
      hold: get,
      update,
      list: (accountId, page, perPage) =>
        readStore(store, (state) => {
          const all = [...state.messaging.campaigns.values()]
            .filter((c) => c.accountId === accountId)
            .sort((a, b) =>
              DateTime.toEpochMillis(b.createdAt) - DateTime.toEpochMillis(a.createdAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
            )
          return { rows: all.slice((page - 1) * perPage, page * perPage), total: all.length }
        }),
      counts: (accountId, ids) =>
        readStore(store, (state) =>
          new Map(ids.flatMap((id) => {
            const rows = recipientsOf(state, accountId, id)
            return rows.length === 0 ? [] : [[id, countRecipients(rows)] as const]
          }))),
      addRecipients: (accountId, campaignId, recipients: ReadonlyArray<NewRecipient>, now) =>
        changeRecipients(accountId, campaignId, (rows) => {
          for (const r of recipients) {
            if (rows.has(r.contactId)) continue
            rows.set(r.contactId, {
              accountId,
              campaignId,
              contactId: r.contactId,
              seq: r.seq,
              digits: r.digits,
              parameters: r.parameters,
              status: r.status,
              messageId: null,
              messageStatus: null,
              reason: r.reason,
              updatedAt: now
            })
          }
        }),
      claimRecipients: (accountId, campaignId, limit, now, fromSeq = 0) =>
        changeRecipients(accountId, campaignId, (rows) => {
          const picked = [...rows.values()].filter((r) => r.status === "pending" && r.seq >= fromSeq)
            .sort((a, b) => a.seq - b.seq)
            .slice(0, Math.max(0, Math.floor(limit)))
            .map((r): CampaignRecipient => ({ ...r, status: "sending", updatedAt: now }))
          for (const r of picked) rows.set(r.contactId, r)
          return picked
        }),
      settleRecipient: (accountId, campaignId, contactId, outcome, now) =>
        changeRecipients(accountId, campaignId, (rows) => {
          const row = rows.get(contactId)
          if (row === undefined || row.status !== "sending") return false
          rows.set(contactId, {
            ...row,
            status: statusOf(outcome),
            messageId: outcome._tag === "Sent" ? outcome.messageId : null,
            reason: outcome._tag === "Failed" ? outcome.reason : null,
            updatedAt: now
          })
          return true
        }),
      markSent: (accountId, campaignId, sent, now) =>
        changeRecipients(accountId, campaignId, (rows) => {
          let n = 0
          for (const { contactId, messageId } of sent) {
            const row = rows.get(contactId)
            if (row === undefined || row.status !== "sending") continue
            rows.set(contactId, { ...row, status: "sent", messageId, reason: null, updatedAt: now })
            n++
          }
          return n
        }),
      sending: (accountId, campaignId) =>
        readStore(store, (state) => recipientsOf(state, accountId, campaignId).filter((r) => r.status === "sending")),
      unsettled: (accountId, campaignId) =>
        readStore(store, (state) =>
          recipientsOf(state, accountId, campaignId).filter((r) => r.status === "pending" || r.status === "sending").length),
      listRecipients: (accountId, campaignId, page, perPage) =>
        readStore(store, (state) => {
          const all = recipientsOf(state, accountId, campaignId)
          return { rows: all.slice((page - 1) * perPage, page * perPage), total: all.length }
        }),
      claimDue: (now, leaseUntil) =>
        updateStore(store, (state) => {
          const due = [...state.messaging.campaigns.values()]
            .filter((c) =>
              !campaignEnded(c.status) &&
              (c.status !== "scheduled" || (c.scheduledAt !== null && !DateTime.isGreaterThan(c.scheduledAt, now))) &&
              (c.resumeAt === null || !DateTime.isGreaterThan(c.resumeAt, now)) &&
              (c.leaseUntil === null || DateTime.isLessThan(c.leaseUntil, now))
            )
            .sort((a, b) =>
              DateTime.toEpochMillis(a.turnAt) - DateTime.toEpochMillis(b.turnAt) ||
              DateTime.toEpochMillis(a.createdAt) - DateTime.toEpochMillis(b.createdAt)
            )[0]
          if (due === undefined) return [Option.none(), state] as const
          const key = accountKey(due.accountId, due.id)
          const leased = { ...due, leaseUntil }
          return [
            Option.some(due),
            withMessaging(state, { ...state.messaging, campaigns: mapSet(state.messaging.campaigns, key, leased) })
          ] as const
        }),
      activeOnPlatform: (accountId, platformId) =>
        readStore(store, (state) =>
          [...state.messaging.campaigns.values()].some((c) =>
            c.accountId === accountId && !campaignEnded(c.status) &&
            state.messaging.broadcasts.get(c.broadcastId)?.platform_id === platformId
          ))
    })
  })
)
