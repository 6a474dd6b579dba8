/**
 * Campaigns over the API: asking for one, listing and reading them and their recipients, and
 * canceling one. The worker sends them (campaign-run.ts). Permissions: `broadcast-send` to ask
 * for and cancel a campaign, `broadcast-index` to read them. A campaign of another account, or no
 * campaign, is 404.
 */
import { DateTime, Effect, Option, Result } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, forbidden, invalid, NotFound, type ValidationFailed } from "../errors.ts"
import type { BroadcastRepository } from "../messaging/broadcast-repository.ts"
import {
  type Campaign,
  campaignJson,
  type CampaignJson,
  campaignRecipientJson,
  type CampaignRecipientJson,
  NO_COUNTS,
  newCampaign,
  transitionCampaign
} from "../messaging/campaign.ts"
import { validateCampaignInput } from "../messaging/campaign-input.ts"
import { CampaignRepository } from "../messaging/campaign-repository.ts"
import type { ListQueryInput } from "../records/list-query-input.ts"
import { type Page, parsePageParams } from "../records/pagination.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import { Transactor } from "../transactor.ts"
import { newRecordId } from "../wire/record-id.ts"
import { authorize } from "./authenticate.ts"
import { findBroadcast } from "./messaging.ts"
import { customOf } from "./record-lookup.ts"
import { AUTHENTICATION_ONLY_VIA_SEND_OTP, NOT_APPROVED } from "./send-template.ts"

/** The 422 message of a cancel of a campaign that has ended. */
export const CAMPAIGN_ENDED_ALREADY = "The campaign has already ended."

/**
 * `POST /api/broadcasts/{id}/campaigns` `{ name, audience, parameters?, scheduled_at? }`: asks for
 * the broadcast to be sent to the audience — the contacts named (`contact_ids`), or those the
 * contacts list query (`search`, `complex_filters`) matches when the campaign starts — at
 * `scheduled_at` or at once. Needs `broadcast-send`. Answers the campaign, `scheduled` or
 * `queued`, with no recipient yet.
 *
 * Fails {@link Forbidden} without the permission, for an authentication template
 * ({@link AUTHENTICATION_ONLY_VIA_SEND_OTP}) or one not approved ({@link NOT_APPROVED});
 * {@link NotFound} for a broadcast the account does not have; {@link ValidationFailed} for an
 * invalid body (see `validateCampaignInput`).
 */
export const createCampaign: (
  principal: Principal,
  broadcastId: number,
  body: unknown
) => Effect.Effect<
  CampaignJson,
  Forbidden | NotFound | ValidationFailed,
  BroadcastRepository | CampaignRepository | PropertyRepository | SecureRandom.SecureRandom
> = Effect.fn("createCampaign")(function*(principal: Principal, broadcastId: number, body: unknown) {
  yield* authorize(principal, "broadcast-send")
  const broadcast = yield* findBroadcast(principal.accountId, broadcastId)
  if (broadcast.template.category === "AUTHENTICATION") return yield* forbidden(AUTHENTICATION_ONLY_VIA_SEND_OTP)
  if (broadcast.status !== "APPROVED") return yield* forbidden(NOT_APPROVED)
  const now = yield* DateTime.now
  const custom = yield* customOf(principal.accountId, "contact")
  const input = yield* validateCampaignInput(broadcast.template, body, custom, now)
  const campaign = newCampaign({
    accountId: principal.accountId,
    id: yield* newRecordId,
    name: input.name,
    broadcastId: broadcast.id,
    userId: principal.userId,
    audience: input.audience,
    parameters: input.parameters,
    scheduledAt: input.scheduledAt,
    createdAt: now
  })
  yield* CampaignRepository.use((repo) => repo.insert(campaign))
  return campaignJson(campaign, NO_COUNTS)
})

/** The account's campaign, with no permission check; {@link NotFound} when it has none such. */
const findCampaign = (accountId: number, id: string) =>
  Effect.flatMap(
    CampaignRepository.use((repo) => repo.get(accountId, id)),
    Option.match({ onNone: () => Effect.fail(new NotFound()), onSome: Effect.succeed })
  )

/** The campaigns as the API shows them, with their counts. */
const withCounts = (accountId: number, campaigns: ReadonlyArray<Campaign>) =>
  Effect.map(
    CampaignRepository.use((repo) => repo.counts(accountId, campaigns.map((c) => c.id))),
    (counts) => campaigns.map((c) => campaignJson(c, counts.get(c.id) ?? NO_COUNTS))
  )

/**
 * `GET /api/campaigns?page=&per_page=`: the account's campaigns, newest first, with their counts.
 * Needs `broadcast-index`. Fails {@link Forbidden} without it, {@link ValidationFailed} for bad
 * page parameters.
 */
export const listCampaigns: (
  principal: Principal,
  query: ListQueryInput
) => Effect.Effect<Page<CampaignJson>, Forbidden | ValidationFailed, CampaignRepository> = Effect.fn("listCampaigns")(
  function*(principal: Principal, query: ListQueryInput) {
    yield* authorize(principal, "broadcast-index")
    const { page, perPage } = yield* parsePageParams(query)
    const found = yield* CampaignRepository.use((repo) => repo.list(principal.accountId, page, perPage))
    return { items: yield* withCounts(principal.accountId, found.rows), total: found.total, page, perPage }
  }
)

/**
 * `GET /api/campaigns/{_id}`: one campaign with its counts. Needs `broadcast-index`. Fails
 * {@link Forbidden} without it, {@link NotFound} for an id the account has no campaign of.
 */
export const getCampaign: (
  principal: Principal,
  id: string
) => Effect.Effect<CampaignJson, Forbidden | NotFound, CampaignRepository> = Effect.fn("getCampaign")(
  function*(principal: Principal, id: string) {
    yield* authorize(principal, "broadcast-index")
    const campaign = yield* findCampaign(principal.accountId, id)
    return (yield* withCounts(principal.accountId, [campaign]))[0]!
  }
)

/**
 * `GET /api/campaigns/{_id}/recipients?page=&per_page=`: the campaign's recipients in audience
 * order, each with its contact, its message once sent, and its status (a sent one's is its
 * message's). Needs `broadcast-index`. Fails {@link Forbidden} without it, {@link NotFound} as
 * `getCampaign` does, {@link ValidationFailed} for bad page parameters.
 */
export const listCampaignRecipients: (
  principal: Principal,
  id: string,
  query: ListQueryInput
) => Effect.Effect<Page<CampaignRecipientJson>, Forbidden | NotFound | ValidationFailed, CampaignRepository> = Effect
  .fn("listCampaignRecipients")(function*(principal: Principal, id: string, query: ListQueryInput) {
    yield* authorize(principal, "broadcast-index")
    const campaign = yield* findCampaign(principal.accountId, id)
    const { page, perPage } = yield* parsePageParams(query)
    const found = yield* CampaignRepository.use((repo) => repo.listRecipients(campaign.accountId, campaign.id, page, perPage))
    return { items: found.rows.map(campaignRecipientJson), total: found.total, page, perPage }
  })

/**
 * `POST /api/campaigns/{_id}/cancel`: stops the campaign; recipients not yet sent never are (those
 * whose send is under way finish). Needs `broadcast-send`. Answers the campaign, `canceled`.
 * Fails {@link Forbidden} without the permission, {@link NotFound} as `getCampaign` does,
 * {@link ValidationFailed} on `status` for a campaign that has ended ({@link CAMPAIGN_ENDED_ALREADY}).
 */
export const cancelCampaign: (
  principal: Principal,
  id: string
) => Effect.Effect<CampaignJson, Forbidden | NotFound | ValidationFailed, CampaignRepository | Transactor> = Effect.fn(
  "cancelCampaign"
)(function*(principal: Principal, id: string) {
  yield* authorize(principal, "broadcast-send")
  const canceled = yield* Transactor.use((transactor) =>
    transactor.transaction(Effect.gen(function*() {
      const repo = yield* CampaignRepository
      const held = yield* repo.hold(principal.accountId, id)
      if (Option.isNone(held)) return yield* new NotFound()
      const next = transitionCampaign(held.value, { _tag: "Cancel" }, yield* DateTime.now)
      if (Result.isFailure(next)) return yield* invalid("status", CAMPAIGN_ENDED_ALREADY)
      yield* repo.update(next.success)
      return next.success
    }))
  )
  return (yield* withCounts(principal.accountId, [canceled]))[0]!
})
