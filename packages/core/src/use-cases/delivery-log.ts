/**
 * The delivery log of a webhook (decisions §6):
 * - `listDeliveries`: `GET /api/account/webhooks/{id}/deliveries`, newest first, paginated;
 *   permission webhook-index.
 * - `redeliver`: `POST .../{id}/deliveries/{delivery_id}/redeliver` queues a fresh delivery (new
 *   uuid, attempts from 1) of the same body; permission webhook-update. It is queued whatever the
 *   webhook's state: the worker sends it only while the webhook is validated and active (else it
 *   is cancelled like any other), so a redelivery never bypasses the webhook state machine.
 * A webhook or delivery of another account is 404 (ARCHITECTURE rule 8).
 */
import { DateTime, Effect, Option } from "effect"
import { SecureRandom } from "effect/crypto"
import type { Principal } from "../auth/principal.ts"
import { NotFound } from "../errors.ts"
import { pageOffset, parsePageParams } from "../records/pagination.ts"
import type { QueryInput } from "../records/query-string.ts"
import { DeliveryPolicy } from "../webhooks/delivery-policy.ts"
import { DeliveryRepository, type DeliveryView } from "../webhooks/delivery-repository.ts"
import { toDeliveryResource } from "../webhooks/delivery-resource.ts"
import { queued } from "../webhooks/delivery-state.ts"
import { authorize } from "./authenticate.ts"

/** 404 unless the account holds the webhook (ids that are not positive integers included). */
const requireWebhook = (accountId: number, webhookId: number) =>
  !Number.isSafeInteger(webhookId) || webhookId <= 0 ? Effect.fail(new NotFound()) : Effect.flatMap(
    DeliveryRepository.use((repo) => repo.webhookExists(accountId, webhookId)),
    (exists) => exists ? Effect.void : Effect.fail(new NotFound())
  )

/** One page (`page`, `per_page` of the query) of the webhook's deliveries, newest first, and the total. */
export const listDeliveries = Effect.fn("listDeliveries")(function*(
  principal: Principal,
  webhookId: number,
  query: QueryInput
) {
  yield* authorize(principal, "webhook-index")
  const page = yield* parsePageParams(query)
  yield* requireWebhook(principal.accountId, webhookId)
  const { items, total } = yield* DeliveryRepository.use((repo) =>
    repo.list(principal.accountId, webhookId, { offset: pageOffset(page), limit: page.perPage })
  )
  return { items: items.map(toDeliveryResource), total, page: page.page, perPage: page.perPage }
})

/** Queues a new delivery of the same event and body; answers it as the log shows it. */
export const redeliver = Effect.fn("redeliver")(function*(principal: Principal, webhookId: number, deliveryId: string) {
  yield* authorize(principal, "webhook-update")
  yield* requireWebhook(principal.accountId, webhookId)
  const repo = yield* DeliveryRepository
  const original = yield* repo.findBody(principal.accountId, webhookId, deliveryId)
  if (Option.isNone(original)) return yield* Effect.fail(new NotFound())
  const now = yield* DateTime.now
  const state = queued(now, (yield* DeliveryPolicy).schedule)
  const id = yield* (yield* SecureRandom.SecureRandom).uuidV4()
  yield* repo.insert([{
    accountId: principal.accountId,
    id,
    webhookId,
    event: original.value.event,
    body: original.value.body,
    eventId: null,
    state,
    createdAt: now
  }])
  return toDeliveryResource({
    id,
    event: original.value.event,
    status: state.status,
    attempts: [],
    nextAttemptAt: state.nextAttemptAt,
    createdAt: now
  } satisfies DeliveryView)
})
