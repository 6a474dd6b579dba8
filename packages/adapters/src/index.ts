/**
 * Adapters for the ports of `@wasl/core`, and one layer per deployment shape that gives every
 * port the use-cases, the HTTP handlers (`@wasl/http`) and the delivery worker (`@wasl/worker`)
 * need:
 *
 * - `WaslPostgres.layer({ url })`: PostgreSQL (14 or newer), migrated when the layer is built;
 *   `WaslPostgres.layerClient()` runs on your own `PgClient` (made with `waslPgClientOptions`);
 * - `WaslEmbedded.layer({ dataDir })`: the embedded PostgreSQL (PGlite) in a directory, no server;
 * - `WaslMemory.layer()` (from `@wasl/adapters/memory`): everything in memory.
 *
 * The parts they are made of are here too, for hosts that compose their own layers: the
 * PostgreSQL repositories (`RepositoriesPg`, `AccountRepositoryPg`, ...) and their migrations
 * (`MigrationsLive`), the database clients (`DatabaseLive`), the webhook HTTPS transport and its
 * address guard (`WebhookTransportHttp`, `WebhookUrlGuardDns`), mail over SMTP or to a file
 * (`MailerSmtp`, `MailerJsonLines`), the WhatsApp Cloud and sandbox providers
 * (`MessagingProviderLive`), pooled secure randomness (`SecureRandomPooled`), password and token hashing (`PasswordHasherScrypt`,
 * `TokenHasherNode`), HMAC on `node:crypto` for the webhook signatures (`MacNode`). A few exports
 * are internal plumbing shared between the adapters' files (the records' list statement and
 * storage mapping, row helpers); their documentation says so.
 *
 * Test databases (`TestDatabase`) and the local stand-in for the WhatsApp Cloud API
 * (`startFakeCloudApi`) are test doubles: they live at `@wasl/adapters/testing`, with the ports'
 * contract suites, not here.
 *
 * These adapters use Node's modules (`node:crypto`, `node:fs`, `node:net`, ...); the memory
 * adapters of `@wasl/adapters/memory` need nothing but `effect` and `@wasl/core`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { ensureFirstAccount } from "@wasl/core"
 * import { WaslPostgres } from "@wasl/adapters"
 *
 * const Wasl = WaslPostgres.layer({
 *   url: "postgres://wasl:secret@db.example:5432/wasl",
 *   secretKey: process.env.WASL_SECRET_KEY
 * })
 *
 * // Migrates the database, then makes a first account on an empty one.
 * Effect.runPromise(ensureFirstAccount().pipe(Effect.provide(Wasl)))
 * ```
 *
 * @module
 */
export * from "./db/database.ts"
export {
  acquireDataDirLock,
  type DataDirLock,
  dataDirLockPath,
  type DataDirServer,
  pgDataPath
} from "./db/data-dir-lock.ts"
export * from "./db/embedded-postgres.ts"
export * from "./db/embedded-postgres-errors.ts"
export { makeBackendScanner, type Notification } from "./db/wire-multiplexer.ts"
export { migrations } from "./db/migrations/index.ts"
export * from "./memory/index.ts"
export * from "./password-hasher-scrypt.ts"
export * from "./token-hasher-node.ts"
export * from "./mac-node.ts"
export * from "./secure-random-pooled.ts"
export * from "./pg/index.ts"
export * from "./repository-semantics.ts"
export * from "./services-pg.ts"
export * from "./pg/records/list-statement.ts"
export * from "./pg/records/storage.ts"
export * from "./webhooks/webhook-transport-http.ts"
export * from "./webhooks/webhook-url-guard-dns.ts"
export * from "./mail/mailer-json-lines.ts"
export * from "./mail/mailer-smtp.ts"
export * from "./mail/smtp-url.ts"
export * from "./media/media-store-file.ts"
export * from "./messaging/messaging-provider-live.ts"
export * from "./messaging/messaging-provider-sandbox.ts"
export * from "./messaging/sandbox-webhook-bodies.ts"
export * from "./messaging/messaging-provider-whatsapp-cloud.ts"
export * from "./deployment/index.ts"
