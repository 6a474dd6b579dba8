/**
 * The check the delivery-log use-cases (list, redelivery, recovery) share: the webhook in the path
 * is the account's. Internal to the use-cases (not exported by the package).
 */
import { Effect } from "effect"
import { NotFound } from "../errors.ts"
import { DeliveryRepository } from "../webhooks/delivery-repository.ts"

/** 404 unless the account holds the webhook (ids that are not positive integers included). */
export const requireWebhook = (accountId: number, webhookId: number): Effect.Effect<void, NotFound, DeliveryRepository> =>
  !Number.isSafeInteger(webhookId) || webhookId <= 0 ? Effect.fail(new NotFound()) : Effect.flatMap(
    DeliveryRepository.use((repo) => repo.webhookExists(accountId, webhookId)),
    (exists) => exists ? Effect.void : Effect.fail(new NotFound())
  )
