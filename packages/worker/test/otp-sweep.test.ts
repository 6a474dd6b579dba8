/**
 * The worker's OTP sweep loop on PGlite (core messaging/otp-reservation.ts): a reservation left
 * open longer than OTP_RESERVATION_SAFE_AFTER (a send whose process stopped between charging and
 * storing its outcome) is refunded by a running worker without anything but its own timer; a
 * fresh open reservation and a settled one are left alone.
 */
import { assert, describe, it } from "@effect/vitest"
import { DeliveryPolicy } from "@wasl/core/Deliveries"
import { WebhookTransport } from "@wasl/core/Webhooks"
import { Duration, Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { runDeliveryWorker } from "../src/index.ts"
import { SHORT_POLICY, until, workerServices } from "./support.ts"

const NoWebhooks = Layer.succeed(WebhookTransport, WebhookTransport.of({
  post: () => Effect.die(new Error("no webhook is sent in this test"))
}))


const services = workerServices(NoWebhooks)



describe("runDeliveryWorker: OTP reservation sweep", () => {
  it.live("refunds a reservation left open past the safe time, and leaves fresh and settled ones", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [account] = yield* sql<{ id: number }>`
        INSERT INTO accounts (name, otp_credits, created_at, updated_at) VALUES ('sweep test', 5, now(), now()) RETURNING id
      `
      const accountId = Number(account!.id)
      // Three sends that charged a credit each (5 - 3 = 2 left): one stopped 3 minutes ago, one
      // settled 3 minutes ago, one still in flight.
      yield* sql`UPDATE accounts SET otp_credits = 2 WHERE id = ${accountId}`
      yield* sql`
        INSERT INTO otp_reservations (account_id, id, recipient, status, created_at, updated_at) VALUES
          (${accountId}, ${"a".repeat(24)}, '966500000001', 'open', now() - interval '3 minutes', now() - interval '3 minutes'),
          (${accountId}, ${"b".repeat(24)}, '966500000002', 'settled', now() - interval '3 minutes', now() - interval '3 minutes'),
          (${accountId}, ${"c".repeat(24)}, '966500000003', 'open', now(), now())
      `
      const statuses = sql<{ id: string; status: string }>`
        SELECT id, status FROM otp_reservations WHERE account_id = ${accountId} ORDER BY id
      `.pipe(Effect.orDie, Effect.map((rows) => rows.map((r) => `${r.id[0]}:${r.status}`)))
      const credits = sql<{ otp_credits: number }>`SELECT otp_credits FROM accounts WHERE id = ${accountId}`.pipe(
        Effect.orDie,
        Effect.map((rows) => Number(rows[0]!.otp_credits))
      )

      const scope = yield* Scope.make()
      yield* Scope.provide(
        Effect.provideService(
          runDeliveryWorker({ pollInterval: Duration.minutes(5), otpSweepInterval: Duration.millis(100) }),
          DeliveryPolicy,
          SHORT_POLICY
        ),
        scope
      )
      yield* until(Effect.map(credits, (n) => n === 3), "the stale reservation refunded")
      // A few more sweeps go by: nothing else changes.
      yield* Effect.sleep(Duration.millis(400))
      yield* Scope.close(scope, Exit.void)
      assert.deepStrictEqual(yield* statuses, ["a:released", "b:settled", "c:open"])
      assert.strictEqual(yield* credits, 3)
    }).pipe(Effect.provide(services)), { timeout: 60_000 })
})
