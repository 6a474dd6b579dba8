/**
 * The worker's import loop on a database, in real time: accounts take turns, a batch each, so
 * account B's one-row import queued behind account A's two imports of 400 rows (10 batches of
 * 40 each) completes while A's are still running, with one worker or two, and A's then complete
 * with every row written once. On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { describe, it } from "@effect/vitest"
import { postgresTestEnabled, TestDatabase, type TestDatabaseLayer } from "@wasl/adapters/testing"
import { WebhookTransport } from "@wasl/core/Webhooks"
import { Duration, Effect, Layer } from "effect"
import { oneRowImportTakesItsTurn } from "./import-turns.ts"
import { workerServices } from "./support.ts"

const NoWebhooks = Layer.succeed(WebhookTransport, WebhookTransport.of({ post: () => Effect.die("no webhook is sent") }))

const databases: ReadonlyArray<readonly [string, TestDatabaseLayer]> = [
  ["PGlite", TestDatabase.pglite],
  ...(postgresTestEnabled() ? [["PostgreSQL", TestDatabase.postgres] as const] : [])
]

/** Looks every 100 ms (a status read every few milliseconds would slow the worker down) until `done`. */
const runUntil = (done: Effect.Effect<boolean>, what: string) =>
  Effect.gen(function*() {
    while (!(yield* done)) yield* Effect.sleep(Duration.millis(100))
  }).pipe(Effect.timeoutOrElse({ duration: Duration.seconds(60), orElse: () => Effect.die(new Error(`not within the time: ${what}`)) }))

for (const [name, database] of databases) {
  describe(`runDeliveryWorker: CSV imports on ${name}`, () => {
    for (const workers of [1, 2]) {
      it.live(`with ${workers} worker(s), a one-row import queued behind another account's two large ones completes first`, () =>
        oneRowImportTakesItsTurn(workers, 400, { pollInterval: Duration.millis(50), importBatch: 40 }, runUntil).pipe(
          Effect.provide(workerServices(NoWebhooks, database))
        ), { timeout: 120_000 })
    }
  })
}
