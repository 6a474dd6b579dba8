import { Effect } from "effect"
import { bootstrapAccount } from "@wasl/core/Accounts"
import { authenticateToken } from "@wasl/core/Auth"
import { fanOutEvents, listDeliveries } from "@wasl/core/Deliveries"
import { createRecord } from "@wasl/core/Records"
import { activateWebhook, createWebhook, validateWebhook } from "@wasl/core/Webhooks"
import { MemoryReceivers, WaslMemory } from "@wasl/adapters/memory"

const program = Effect.gen(function*() {
  // An account with its owner and an API token; the token's principal is who acts below.
  const { token } = yield* bootstrapAccount({ account: "Acme", email: "owner@acme.test", password: "correct horse battery", plan: "business", otpCredits: 0 })
  const owner = yield* authenticateToken(token)

  // A webhook for new deals. An in-memory endpoint holding its secret answers the validation challenge.
  const webhook = yield* createWebhook(owner, { URL: "https://hooks.acme.test/wasl", events: ["deal-created"] })
  yield* MemoryReceivers.use((receivers) => receivers.register(webhook.URL, webhook.secret))
  yield* validateWebhook(owner, webhook.id)
  yield* activateWebhook(owner, webhook.id, { is_active: true })

  // A deal, stored with its deal-created event; the fan-out (the worker's first step) queues its delivery.
  const deal = yield* createRecord(owner, "deal", { deal_name: "Big deal", amount: 1200 })
  yield* fanOutEvents(100, "15 seconds")
  const deliveries = yield* listDeliveries(owner, webhook.id, {})

  console.log(JSON.stringify({ deal, delivery: deliveries.items[0] }, null, 2))
})

Effect.runPromise(program.pipe(Effect.provide(WaslMemory.layer())))
