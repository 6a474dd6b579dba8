/**
 * The CampaignRepository port: campaigns and their recipients, per account. Every method takes the
 * account and never sees another account's rows.
 *
 * A recipient is sent in three steps, so that no transaction stays open while the provider
 * answers: `claimRecipients` (in the transaction that takes each one's message of the allowance)
 * moves it from `pending` to `sending`; the provider is called; `settleRecipient` (in the
 * transaction that stores its message) moves it on from `sending`. A recipient is only ever
 * claimed from `pending`, so it is never sent twice, even by two workers.
 */
import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Campaign, CampaignCounts, CampaignRecipient } from "./campaign.ts"

/** A recipient as the audience's resolution writes it. */
export interface NewRecipient {
  /** The contact. */
  readonly contactId: string
  /** Its place in the audience. */
  readonly seq: number
  /** The number to send to (digits); null for one skipped for having none. */
  readonly digits: string | null
  /** Its variables filled, when the template has any. */
  readonly parameters: CampaignRecipient["parameters"]
  /** `pending`, or `skipped` with its reason. */
  readonly status: "pending" | "skipped"
  /** Why it is skipped. */
  readonly reason: string | null
}

/** How a claimed recipient's send ended. */
export type RecipientOutcome =
  | { readonly _tag: "Sent"; readonly messageId: string }
  | { readonly _tag: "Failed"; readonly reason: string }
  | { readonly _tag: "Pending" }

/** A page of a list. */
export interface RowsPage<T> {
  /** The rows of the page. */
  readonly rows: ReadonlyArray<T>
  /** How many rows all pages hold. */
  readonly total: number
}

/** What the CampaignRepository port offers (implement this to write an adapter). */
export interface CampaignRepositoryShape {
  /** Stores a new campaign. */
  readonly insert: (campaign: Campaign) => Effect.Effect<void>
  /** The account's campaign; none for an id it has none of. */
  readonly get: (accountId: number, id: string) => Effect.Effect<Option.Option<Campaign>>
  /**
   * The account's campaign, held until the transaction ends (a cancel and the worker then change
   * it one after the other); none for an id it has none of.
   */
  readonly hold: (accountId: number, id: string) => Effect.Effect<Option.Option<Campaign>>
  /** Stores the campaign's status, reason, progress, lease and timestamps. */
  readonly update: (campaign: Campaign) => Effect.Effect<void>
  /** The account's campaigns, newest first, a page at a time. */
  readonly list: (accountId: number, page: number, perPage: number) => Effect.Effect<RowsPage<Campaign>>
  /** The counts of the account's campaigns `ids` (those it has none of are absent). */
  readonly counts: (accountId: number, ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, CampaignCounts>>
  /** Writes recipients of the campaign; a contact it has already is left as it is. */
  readonly addRecipients: (
    accountId: number,
    campaignId: string,
    recipients: ReadonlyArray<NewRecipient>,
    now: DateTime.Utc
  ) => Effect.Effect<void>
  /**
   * Moves up to `limit` `pending` recipients of the campaign from place `fromSeq` on, first in
   * audience order, to `sending`, skipping any another claimer holds; answers them. A caller that
   * claims batch after batch passes the place after its last one, so each claim starts where the
   * pending ones are rather than walking past all those already sent.
   */
  readonly claimRecipients: (
    accountId: number,
    campaignId: string,
    limit: number,
    now: DateTime.Utc,
    fromSeq?: number
  ) => Effect.Effect<ReadonlyArray<CampaignRecipient>>
  /** Moves a `sending` recipient to its outcome; false (nothing changes) when it was not `sending`. */
  readonly settleRecipient: (
    accountId: number,
    campaignId: string,
    contactId: string,
    outcome: RecipientOutcome,
    now: DateTime.Utc
  ) => Effect.Effect<boolean>
  /**
   * `settleRecipient` with `Sent` for many recipients at once (each with its message), in one
   * statement; answers how many were `sending` (those that were not are left as they are).
   */
  readonly markSent: (
    accountId: number,
    campaignId: string,
    sent: ReadonlyArray<{ readonly contactId: string; readonly messageId: string }>,
    now: DateTime.Utc
  ) => Effect.Effect<number>
  /**
   * The campaign's recipients that are `sending`, in audience order, each with `updatedAt` the
   * time it was claimed. At the start of a worker's turn (a campaign has one worker at a time)
   * they are those whose send's outcome was never stored: their worker died, or the batch storing
   * them failed.
   */
  readonly sending: (accountId: number, campaignId: string) => Effect.Effect<ReadonlyArray<CampaignRecipient>>
  /** How many of the campaign's recipients are `pending` or `sending`. */
  readonly unsettled: (accountId: number, campaignId: string) => Effect.Effect<number>
  /** The campaign's recipients in audience order, a page at a time, each with its message's status. */
  readonly listRecipients: (
    accountId: number,
    campaignId: string,
    page: number,
    perPage: number
  ) => Effect.Effect<RowsPage<CampaignRecipient>>
  /**
   * Takes a campaign for the worker, skipping ones another worker holds: one `queued`, `running`
   * or `paused`, or `scheduled` with its `scheduledAt` come, whose `resumeAt` has come and whose
   * lease is none or ran out (the one whose turn is oldest: least recently updated). It is leased
   * until `leaseUntil` and answered as it was before.
   */
  readonly claimDue: (now: DateTime.Utc, leaseUntil: DateTime.Utc) => Effect.Effect<Option.Option<Campaign>>
  /** Whether a campaign of the account that has not ended sends through the sending number `platformId`. */
  readonly activeOnPlatform: (accountId: number, platformId: number) => Effect.Effect<boolean>
}

const CampaignRepositoryBase: Context.ServiceClass<
  CampaignRepository,
  "@wasl/core/CampaignRepository",
  CampaignRepositoryShape
> = Context.Service<CampaignRepository, CampaignRepositoryShape>()("@wasl/core/CampaignRepository")

/** Campaigns and their recipients, per account (see {@link CampaignRepositoryShape}). */
export class CampaignRepository extends CampaignRepositoryBase {}
