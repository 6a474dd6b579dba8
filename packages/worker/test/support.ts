/** What the worker's tests share: its services on a fresh database, a short retry policy, waiting. */
import { SecretBox } from "@wasl/core/Auth"
import { type WebhookTransport } from "@wasl/core/Webhooks"
import { PasswordHasherScrypt } from "@wasl/adapters/Crypto"
import { MailerJsonLines } from "@wasl/adapters/Mail"
import { MigrationsLive, QueueSignalsPg, ServicesPg } from "@wasl/adapters/Postgres"
import { MediaStoreMemory, MessagingProviderMemory, TemplateReviewMemory } from "@wasl/adapters/memory"
import { TestDatabase, type TestDatabaseLayer } from "@wasl/adapters/testing"
import { Duration, Effect, Layer } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

/**
 * Every port the worker runs on, with `transport` for webhooks and mail written to a scratch file,
 * on `database` (a fresh PGlite one by default).
 */
export const workerServices = (
  transport: Layer.Layer<WebhookTransport>,
  database: TestDatabaseLayer = TestDatabase.pglite
) => {
  const mailFile = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-worker-test-")), "mail.jsonl")
  return Layer.mergeAll(
    transport,
    SecretBox.layerAesGcm(new Uint8Array(32).fill(9)),
    MailerJsonLines(mailFile),
    QueueSignalsPg,
    MessagingProviderMemory,
    TemplateReviewMemory,
    MediaStoreMemory
  )
    .pipe(
      Layer.provideMerge(ServicesPg),
      Layer.provideMerge(PasswordHasherScrypt),
      Layer.provideMerge(MigrationsLive),
      Layer.provideMerge(database)
    )
}

/** Six attempts 400 ms apart, 5 s each: retries a test can wait for. */
export const SHORT_POLICY = { schedule: [0, 400, 400, 400, 400, 400].map(Duration.millis), timeout: Duration.seconds(5) }

/** Waits (real time) until `check` holds. */
export const until = <R>(check: Effect.Effect<boolean, never, R>, what: string, timeout = Duration.seconds(10)) =>
  Effect.gen(function*() {
    while (!(yield* check)) yield* Effect.sleep(Duration.millis(20))
  }).pipe(Effect.timeoutOrElse({ duration: timeout, orElse: () => Effect.die(new Error(`not within the time: ${what}`)) }))
