/**
 * The contract suites of Wasl's ports, and fresh test databases. A suite is the same list of
 * tests Wasl runs over its own adapters (in memory, on PGlite and on PostgreSQL): run it against
 * your adapter of a port to know it behaves as Wasl's use-cases expect. Each suite tests through
 * the ports only (using `AccountRepository` and the like to make its accounts), makes its own
 * accounts and never assumes an empty database; the suites that claim a queue across accounts
 * (outbox, deliveries, OTP reservations) want a database no other process is using.
 *
 * Each suite is a function `(name, implementation)` to call at the top level of a vitest test file:
 * it declares a `describe` block whose tests share one build of `implementation`, a layer that
 * provides the port under test and the few other ports the suite uses (its `...ContractServices`
 * type lists them). The suites need `vitest` and `@effect/vitest` (optional peer dependencies of
 * this package).
 *
 * - `repositoriesContract`: accounts, users, teams, notifications, tokens, sessions, transactions;
 * - `propertiesContract`, `propertyValueStoreContract`: custom property definitions and values;
 * - `recordRepositoryContract`, `recordListContract`, `noteRepositoryContract`: records, their
 *   lists (search, filters, ordering, pages) and notes;
 * - `outboxContract`, `outboxNotifyContract`, `deliveryRepositoryContract`, `queueSignalsContract`:
 *   the event outbox, the webhook delivery queue, and the wake-ups between them;
 * - `notificationFeedContract`: live notifications, told to their user once committed;
 * - `messagingRepositoriesContract`, `otpLedgerContract`, `otpReservationContract`: WhatsApp sending
 *   numbers, broadcasts, messages and one-time passwords;
 * - `messageAllowanceLedgerContract`: the monthly message allowance counts;
 * - `campaignRepositoryContract`: campaigns, their recipients and the worker's claims;
 * - `retentionContract`: pruning the rows whose retention ran out;
 * - `rateLimiterContract`: the request counters of rate limits;
 * - `importRepositoryContract`: CSV imports, their staged rows and the worker's claims.
 *
 * `TestDatabase` gives each build of a layer a database of its own: embedded PGlite in a temporary
 * directory, or a new database on the PostgreSQL server of `TEST_DATABASE_URL`.
 * `startFakeCloudApi` runs a local stand-in for the WhatsApp Cloud API that records what it was
 * sent and answers like the real one (failures and held answers on demand).
 *
 * @example Your adapter of the `Outbox` port, beside Wasl's own account and transaction adapters, on a fresh database
 * ```ts
 * // outbox.test.ts
 * import { Layer } from "effect"
 * import { SecureRandom } from "effect/crypto"
 * import { AccountRepositoryPg, MigrationsLive, TransactorPg } from "@wasl/adapters"
 * import { outboxContract, TestDatabase } from "@wasl/adapters/testing"
 * import { MyOutbox } from "./my-outbox.ts" // your adapter: a Layer<Outbox, never, SqlClient>
 *
 * const implementation = Layer.mergeAll(MyOutbox, AccountRepositoryPg, TransactorPg).pipe(
 *   Layer.provideMerge(MigrationsLive),
 *   Layer.provideMerge(TestDatabase.layer),
 *   Layer.provide(SecureRandom.layerWebCrypto)
 * )
 *
 * outboxContract("MyOutbox", implementation)
 * ```
 *
 * @module
 */
export * from "./messaging-repositories-contract.ts"
export * from "./conversations-contract.ts"
export * from "./media-store-contract.ts"
export * from "./inbound-stores-contract.ts"
export * from "./otp-ledger-contract.ts"
export * from "./message-allowance-contract.ts"
export * from "./campaign-repository-contract.ts"
export * from "./otp-reservation-contract.ts"
export * from "./idempotency-store-contract.ts"
export * from "./import-repository-contract.ts"
export * from "./delivery-repository-contract.ts"
export * from "./outbox-contract.ts"
export * from "./outbox-notify-contract.ts"
export * from "./properties-contract.ts"
export * from "./pipeline-repository-contract.ts"
export * from "./property-history-repository-contract.ts"
export * from "./saved-view-repository-contract.ts"
export * from "./notification-feed-contract.ts"
export * from "./queue-signals-contract.ts"
export * from "./rate-limiter-contract.ts"
export * from "./recording-tracer.ts"
export * from "./repositories-contract.ts"
export * from "./retention-contract.ts"
export * from "./delivery-backlog-contract.ts"
export * from "../db/test-database.ts"
export * from "./fake-whatsapp-cloud-api.ts"
// What a test database's layer can fail with, and the embedded server `makePgliteTestDatabase` gives.
export { DatabaseLockedError, EmbeddedPostgresError } from "../db/embedded-postgres-errors.ts"
export type { EmbeddedPostgresService } from "../db/embedded-postgres.ts"
export type { Notification } from "../db/wire-multiplexer.ts"
export * from "./note-repository-contract.ts"
export * from "./property-value-store-contract.ts"
export * from "./record-list-contract.ts"
export * from "./record-repository-contract.ts"
export * from "./webhook-repository-contract.ts"
export * from "./export-repository-contract.ts"
export * from "./whatsapp-inbox-contract.ts"
export * from "./fake-meta-webhooks.ts"
export * from "./fake-meta-template-webhooks.ts"
export * from "./fake-meta-templates.ts"
export * from "./two-factor-contract.ts"
export * from "./member-accounts-contract.ts"
export * from "./members-contract.ts"
