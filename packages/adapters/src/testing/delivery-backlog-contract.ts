/** The contract suite of `DeliveryBacklog` (documented on `deliveryBacklogContract`). */
import { assert, layer } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import { DeliveryBacklog, DeliveryRepository, type DeliveryStatus } from "@wasl/core/Deliveries"
import { Outbox } from "@wasl/core/Events"
import { type WebhookRepository } from "@wasl/core/Webhooks"
import { DateTime, Duration, Effect, type Layer } from "effect"
import { newWebhook } from "./delivery-repository-contract.ts"

/** What the layer under `deliveryBacklogContract` provides. */
export type DeliveryBacklogContractServices =
  | DeliveryBacklog
  | AccountRepository
  | WebhookRepository
  | DeliveryRepository
  | Outbox

/**
 * The contract every `DeliveryBacklog` adapter must pass, on a fresh store, in real time (the
 * PostgreSQL adapter reads the database's clock): the outbox's unprocessed events, the pending
 * deliveries due now or earlier (not those due later, nor finished ones), and how long the
 * longest-waiting one has been due; zeros on an empty store.
 */
export const deliveryBacklogContract = <E>(name: string, implementation: Layer.Layer<DeliveryBacklogContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("counts the outbox and the due deliveries, and ages the oldest due one", () =>
      Effect.gen(function*() {
        const backlog = yield* DeliveryBacklog
        assert.deepStrictEqual(yield* backlog.snapshot, { outboxEvents: 0, deliveriesDue: 0, oldestDueSeconds: 0 })

        const account = yield* AccountRepository.use((accounts) =>
          accounts.create({ name: "Backlog", plan: "business", webhookLimit: null, otpCredits: 0 })
        )
        yield* Outbox.use((outbox) =>
          outbox.append([
            { accountId: account.id, name: "deal-created", payload: { properties: {} } },
            { accountId: account.id, name: "deal-updated", payload: { properties: {} } }
          ])
        )
        const webhookId = yield* newWebhook(account.id, "https://backlog.example/hook", ["deal-created"])
        const now = yield* DateTime.now
        const delivery = (status: DeliveryStatus, dueInSeconds: number | null) => ({
          accountId: account.id,
          id: globalThis.crypto.randomUUID(),
          webhookId,
          event: "deal-created" as const,
          body: `{"time":1.000000,"event":"deal-created","deal":{}}`,
          eventId: null,
          state: { status, attempts: 0, nextAttemptAt: dueInSeconds === null ? null : DateTime.add(now, { seconds: dueInSeconds }) },
          createdAt: now
        })
        yield* DeliveryRepository.use((repo) =>
          repo.insert([
            delivery("pending", -90),
            delivery("pending", -30),
            delivery("pending", 3600),
            delivery("succeeded", null),
            delivery("failed", null)
          ])
        )

        const snapshot = yield* backlog.snapshot
        assert.strictEqual(snapshot.outboxEvents, 2)
        assert.strictEqual(snapshot.deliveriesDue, 2)
        assert.isAtLeast(snapshot.oldestDueSeconds, 90)
        assert.isBelow(snapshot.oldestDueSeconds, 120)
      }))
  })
