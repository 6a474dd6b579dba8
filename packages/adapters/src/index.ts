/**
 * Adapters for the ports of `@wasl/core`, as namespaces by what they adapt (Effect's style: `import
 * { Deployment } from "@wasl/adapters"`, then `Deployment.WaslPostgres`; each namespace is also an
 * entry point, `@wasl/adapters/Deployment`, which is how Wasl's other packages import it).
 *
 * `Deployment` has one layer per deployment shape, giving every port the use-cases, the HTTP
 * handlers (`@wasl/http`) and the delivery worker (`@wasl/worker`) need:
 *
 * - `WaslPostgres.layer({ url })`: PostgreSQL (14 or newer), migrated when the layer is built;
 *   `WaslPostgres.layerClient()` runs on your own `PgClient` (made with `waslPgClientOptions`);
 * - `WaslEmbedded.layer({ dataDir })`: the embedded PostgreSQL (PGlite) in a directory, no server;
 * - `Memory.WaslMemory.layer()` (also at `@wasl/adapters/memory`): everything in memory.
 *
 * The parts they are made of are in the other namespaces, for hosts that compose their own layers:
 * `Postgres` (the repositories, `RepositoriesPg`, `AccountRepositoryPg`, ..., their migrations,
 * `MigrationsLive`, the database clients, `DatabaseLive`), `Embedded` (PGlite and its data
 * directory), `Webhooks` (the HTTPS transport and its address guard, `WebhookTransportHttp`,
 * `WebhookUrlGuardDns`), `Mail` (`MailerSmtp`, `MailerJsonLines`), `Media`, `Messaging` (the
 * WhatsApp Cloud and sandbox providers, `MessagingProviderLive`) and `Crypto` (pooled secure
 * randomness, password and token hashing, HMAC on `node:crypto` for the webhook signatures). A few
 * exports of `Postgres` are plumbing shared between the adapters' files (the records' list
 * statement and storage mapping); their documentation says so.
 *
 * Test databases (`TestDatabase`) and the local stand-in for the WhatsApp Cloud API
 * (`startFakeCloudApi`) are test doubles: they live at `@wasl/adapters/testing`, with the ports'
 * contract suites, not here.
 *
 * These adapters use Node's modules (`node:crypto`, `node:fs`, `node:net`, ...); the memory
 * adapters need nothing but `effect` and `@wasl/core`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Accounts } from "@wasl/core"
 * import { Deployment } from "@wasl/adapters"
 *
 * const Wasl = Deployment.WaslPostgres.layer({
 *   url: "postgres://wasl:secret@db.example:5432/wasl",
 *   secretKey: process.env.WASL_SECRET_KEY
 * })
 *
 * // Migrates the database, then makes a first account on an empty one.
 * Effect.runPromise(Accounts.ensureFirstAccount().pipe(Effect.provide(Wasl)))
 * ```
 *
 * @module
 */

/**
 * Node's cryptography for the ports: scrypt password hashing, token hashing, HMAC, a pooled secure
 * random source.
 */
export * as Crypto from "./Crypto.ts"
/**
 * Whole deployments as layers: `WaslPostgres`, `WaslEmbedded`, the Node services, the master key,
 * their options.
 */
export * as Deployment from "./Deployment.ts"
/**
 * Embedded PostgreSQL: PGlite behind the wire multiplexer, its data directory and lock, its errors.
 */
export * as Embedded from "./Embedded.ts"
/** Mailers: SMTP (with its URL), and JSON lines to a file. */
export * as Mail from "./Mail.ts"
/** The media store on files. */
export * as Media from "./Media.ts"
/** The in-memory adapter of every port, over one `MemoryStore`; `WaslMemory`. */
export * as Memory from "./memory/index.ts"
/**
 * WhatsApp providers: the Cloud API, the sandbox and its webhook bodies, the live provider choosing
 * between them.
 */
export * as Messaging from "./Messaging.ts"
/**
 * PostgreSQL: the database layers and migrations, the repositories of every port
 * (`RepositoriesPg`), the record storage and list statements, the repository semantics.
 */
export * as Postgres from "./Postgres.ts"
/** The webhook HTTPS transport and its DNS address guard. */
export * as Webhooks from "./Webhooks.ts"
