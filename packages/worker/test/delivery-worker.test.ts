/**
 * The worker's loops (`runDeliveryWorker`) on PGlite, with a transport the test holds:
 * - an event appended to the outbox is fanned out and delivered without any further call
 *   (woken by NOTIFY; the poll interval is set far longer than the test waits);
 * - a due retry is sent when it comes due (the loop sleeps until the earliest pending delivery);
 * - stopping (closing the scope) while attempts are in flight releases their leases at once,
 *   so another worker can send them straight away (nothing is lost when a process stops).
 */
import { assert, describe, it } from "@effect/vitest"
import { SecretBox } from "@wasl/core/Auth"
import { DeliveryPolicy } from "@wasl/core/Deliveries"
import { Outbox } from "@wasl/core/Events"
import { WebhookTransport, type WebhookRequest, type WebhookResponse } from "@wasl/core/Webhooks"
import { Deferred, Duration, Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { runDeliveryWorker } from "../src/index.ts"
import { SHORT_POLICY, until, workerServices } from "./support.ts"

/** What the endpoint does: answer at once with `status`, or hang until `release` completes. */
const endpoint = {
  status: 200,
  hang: false,
  release: undefined as Deferred.Deferred<void> | undefined,
  requests: [] as Array<WebhookRequest>
}

const HeldTransport = Layer.succeed(WebhookTransport, WebhookTransport.of({
  post: (request) =>
    Effect.gen(function*() {
      endpoint.requests.push(request)
      if (endpoint.hang && endpoint.release !== undefined) yield* Deferred.await(endpoint.release)
      return { _tag: "Answered", status: endpoint.status, body: "", durationMillis: 1 } satisfies WebhookResponse as WebhookResponse
    })
}))


const services = workerServices(HeldTransport)


const setup = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [account] = yield* sql<{ id: number }>`
    INSERT INTO accounts (name, created_at, updated_at) VALUES ('worker test', now(), now()) RETURNING id
  `
  const accountId = Number(account!.id)
  const sealed = yield* (yield* SecretBox).seal("w".repeat(32))
  const [hook] = yield* sql<{ id: number }>`
    INSERT INTO webhooks (account_id, url, secret_sealed, is_validated, is_active, created_at, updated_at)
    VALUES (${accountId}, 'https://receiver.example/hook', ${sealed}, true, true, now(), now()) RETURNING id
  `
  yield* sql`
    INSERT INTO webhook_events (account_id, webhook_id, name, created_at, updated_at)
    VALUES (${accountId}, ${hook!.id}, 'deal-created', now(), now())
  `
  return accountId
})

const appendDeal = (accountId: number, name: string) =>
  Outbox.use((outbox) => outbox.append([{ accountId, name: "deal-created", payload: { properties: { deal_name: name } } }]))


const statuses = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ status: string; attempts: number; leased: boolean }>`
    SELECT status, attempts, claimed_until IS NOT NULL AS leased FROM deliveries ORDER BY created_at, id
  `.pipe(Effect.orDie))

describe("runDeliveryWorker", () => {
  it.live("delivers on NOTIFY, retries when due, and releases in-flight leases when stopped", () =>
    Effect.gen(function*() {
      const accountId = yield* setup
      const scope = yield* Scope.make()
      // A poll far longer than the test: what happens is driven by NOTIFY and due times.
      yield* Scope.provide(
        Effect.provideService(runDeliveryWorker({ pollInterval: Duration.minutes(5) }), DeliveryPolicy, SHORT_POLICY),
        scope
      )

      // 1. An event is delivered without anything but the outbox insert's NOTIFY waking the worker.
      yield* appendDeal(accountId, "first")
      yield* until(Effect.map(statuses, (rows) => rows[0]?.status === "succeeded"), "the first delivery succeeded")
      assert.strictEqual(endpoint.requests.length, 1)

      // 2. A failed attempt is retried 400 ms later, by the loop's own timer.
      endpoint.status = 500
      yield* appendDeal(accountId, "second")
      yield* until(Effect.map(statuses, (rows) => (rows[1]?.attempts ?? 0) >= 2), "the retry")
      endpoint.status = 200
      yield* until(Effect.map(statuses, (rows) => rows[1]?.status === "succeeded"), "the retry succeeded")

      // 3. Attempts hang; the worker is stopped while they are in flight: their leases are released.
      endpoint.hang = true
      endpoint.release = yield* Deferred.make<void>()
      const before = endpoint.requests.length
      yield* appendDeal(accountId, "third")
      yield* appendDeal(accountId, "fourth")
      yield* until(Effect.sync(() => endpoint.requests.length >= before + 2), "two attempts in flight")
      const leased = yield* statuses
      assert.deepStrictEqual(leased.slice(2).map((r) => [r.status, r.leased]), [["pending", true], ["pending", true]])
      yield* Scope.close(scope, Exit.void)
      const after = yield* statuses
      assert.deepStrictEqual(after.slice(2).map((r) => [r.status, r.attempts, r.leased]), [["pending", 0, false], [
        "pending",
        0,
        false
      ]])
      yield* Deferred.succeed(endpoint.release, undefined)
    }).pipe(Effect.provide(services)), { timeout: 60_000 })
})
