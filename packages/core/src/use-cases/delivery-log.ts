/**
 * The delivery log of a webhook:
 * - `listDeliveries`: `GET /api/account/webhooks/{id}/deliveries`, newest first, paginated;
 *   permission webhook-index.
 * - `redeliver`: `POST .../{id}/deliveries/{delivery_id}/redeliver` queues a fresh delivery (new
 *   uuid, attempts from 1) of the same body; permission webhook-update. It is queued whatever the
 *   webhook's state: the worker sends it only while the webhook is validated and active (else it
 *   is cancelled like any other), so a redelivery never bypasses the webhook state machine.
 * A webhook or delivery of another account is 404.
 */
import { DateTime, Effect, Option } from "effect"
import { SecureRandom } from "effect/crypto"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, NotFound, type ValidationFailed } from "../errors.ts"
import { type Page, pageOffset, parsePageParams } from "../records/pagination.ts"
import type { ListQueryInput } from "../records/list-query-input.ts"
import { DeliveryPolicy } from "../webhooks/delivery-policy.ts"
import { DeliveryRepository, type DeliveryView } from "../webhooks/delivery-repository.ts"
import { type DeliveryResource, toDeliveryResource } from "../webhooks/delivery-resource.ts"
import { queued } from "../webhooks/delivery-state.ts"
import { authorize } from "./authenticate.ts"
import { requireWebhook } from "./require-webhook.ts"

/**
 * `GET /api/account/webhooks/{id}/deliveries`: one page (`page`, `per_page` of `query`) of the
 * webhook's deliveries, newest first, each with its status and attempts, and the total. Needs
 * `webhook-index`. Fails {@link Forbidden} without it, {@link NotFound} for an id the account has
 * no webhook of, {@link ValidationFailed} for a bad `page` or `per_page`.
 */
export const listDeliveries: (
  principal: Principal,
  webhookId: number,
  query: ListQueryInput
) => Effect.Effect<Page<DeliveryResource>, Forbidden | NotFound | ValidationFailed, DeliveryRepository> = Effect.fn(
  "listDeliveries"
)(function*(
  principal: Principal,
  webhookId: number,
  query: ListQueryInput
) {
  yield* authorize(principal, "webhook-index")
  const page = yield* parsePageParams(query)
  yield* requireWebhook(principal.accountId, webhookId)
  const { items, total } = yield* DeliveryRepository.use((repo) =>
    repo.list(principal.accountId, webhookId, { offset: pageOffset(page), limit: page.perPage })
  )
  return { items: items.map(toDeliveryResource), total, page: page.page, perPage: page.perPage }
})

/**
 * `POST /api/account/webhooks/{id}/deliveries/{delivery_id}/redeliver`: queues a fresh delivery
 * (new id, attempts from 1) of the same event and body. It is sent only while the webhook is
 * validated and active (else it is cancelled like any other). It keeps no trace context: its
 * attempts are a trace of their own, not part of the original request's, which may be days old. Needs `webhook-update`. Answers the
 * new delivery as the log shows it. Fails {@link Forbidden} without the permission,
 * {@link NotFound} for a webhook or delivery the account does not have.
 */
export const redeliver: (
  principal: Principal,
  webhookId: number,
  deliveryId: string
) => Effect.Effect<DeliveryResource, Forbidden | NotFound, DeliveryRepository | SecureRandom.SecureRandom> = Effect.fn(
  "redeliver"
)(function*(principal: Principal, webhookId: number, deliveryId: string) {
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

