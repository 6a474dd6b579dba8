/**
 * A real Wasl HTTP server on a loopback port, over a fresh database of the
 * chosen kind, for black-box tests. PostgreSQL runs only when TEST_DATABASE_URL is set.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { type Duration, Effect, Layer, Logger, ManagedRuntime, Redacted, Result, type Scope, Tracer } from "effect"
import { HttpServer } from "effect/http"
import { PgClient } from "@effect/sql-pg"
import { SqlClient } from "effect/sql"
import { createServer } from "node:http"
import { PasswordHasherFast } from "@wasl/adapters/Crypto"
import {
  makeEmbeddedPgClient,
  MigrationsLive,
  NotificationFeedPg,
  pgClientOptions,
  RepositoryCachesPg,
  ServicesPg
} from "@wasl/adapters/Postgres"
import {
  makePgliteTestDatabase,
  makePostgresTestDatabase,
  postgresTestEnabled,
  TestDatabase,
  testPostgresUrl
} from "@wasl/adapters/testing"
import { bootstrapAccount } from "@wasl/core/Accounts"
import { RATE_LIMIT_OFF, RateLimitPolicy, type RateLimitPolicyShape } from "@wasl/core/Auth"
import { parsePublicUrl, PublicUrl } from "@wasl/core/Deployment"
import { WhatsAppWebhookSettings } from "@wasl/core/WhatsApp"
import { MetricsToken } from "@wasl/http/Metrics"
import { parseTrustedProxies, serveWasl, SseHeartbeat, StreamsPerUser, TrustedProxies } from "@wasl/http/Routes"
import { type Client, makeClient } from "./client.ts"
import { type FakeWebhookTransport, webhookTestServices, type WebhookServiceOptions } from "./webhook-services.ts"
import { messagingTestServices, type MessagingServiceOptions } from "./messaging-services.ts"

export type DatabaseKind = "pglite" | "postgres"

/** The databases to run suites on: PGlite always, PostgreSQL when configured. */
export const DATABASES: ReadonlyArray<DatabaseKind> = postgresTestEnabled() ? ["pglite", "postgres"] : ["pglite"]

export interface TestServer {
  readonly url: string
  readonly request: Client
  /** Every log line the server wrote, as JSON text. */
  readonly logs: ReadonlyArray<string>
  readonly bootstrap: (input: {
    readonly email: string
    readonly password: string
    readonly plan?: "free" | "starter" | "business" | "custom"
  }) => Promise<{ account_id: number; user_id: number; team_id: number; token: string }>
  /** Runs SQL on the server's database, for assertions on what the API does not show (the outbox). */
  readonly query: (text: string, params?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<any>>
  readonly close: () => Promise<void>
  /** Runs an effect on the server's services (to drive a use-case the API has no endpoint for). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>
  /** The in-process WebhookTransport the server posts through (validation challenges). */
  readonly webhookTransport: FakeWebhookTransport
  /** The JSON-lines file the server's Mailer writes. */
  readonly mailOutbox: string
  /** The JSON-lines file the sandbox messaging provider writes (codes included). */
  readonly sandboxOutbox: string
}

/** What a test server may change beside webhooks and messaging. */
export interface ServerOptions {
  /** The rate limits (each off unless given). */
  readonly rateLimits?: Partial<RateLimitPolicyShape>
  /** The database to use instead of a fresh one of the kind (a second replica on the same one). */
  readonly database?: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>
  /** The tracer of the server (to watch the SQL statements it runs). */
  readonly tracer?: Tracer.Tracer
  /** The proxies whose X-Forwarded-For the server believes (`127.0.0.1, 10.0.0.0/8`). */
  readonly trustedProxies?: string
  /** The public URL every link is written on (`WASL_PUBLIC_URL`; none: the request's host). */
  readonly publicUrl?: string
  /** The bearer token `GET /metrics` asks for (none: open). */
  readonly metricsToken?: string
  /** How often an idle notification stream sends its heartbeat (15 seconds unless given). */
  readonly sseHeartbeat?: Duration.Duration
  /** How many notification streams a user may hold open at once (10 unless given). */
  readonly streamsPerUser?: number
  /** The Meta app's secret and verify token of the WhatsApp receiver (none: its routes answer 404). */
  readonly whatsappWebhook?: { readonly appSecret: string; readonly verifyToken: string }
}

export const startTestServer = async (
  database: DatabaseKind,
  options: WebhookServiceOptions & MessagingServiceOptions & ServerOptions = {}
): Promise<TestServer> => {
  const logs: Array<string> = []
  const capture = Logger.map(Logger.formatJson, (line) => {
    logs.push(line)
  })
  const webhooks = webhookTestServices(options)
  const messaging = messagingTestServices(options)
  // As the apps run: the per-request reads through the caches (WaslPostgres does the same).
  const repositories = RepositoryCachesPg().pipe(Layer.provideMerge(ServicesPg))
  const services = Layer.mergeAll(repositories, NotificationFeedPg).pipe(
    Layer.provideMerge(webhooks.layer),
    Layer.provideMerge(messaging.layer),
    Layer.provideMerge(PasswordHasherFast),
    Layer.provideMerge(Layer.succeed(RateLimitPolicy, {
      caller: RATE_LIMIT_OFF,
      login: RATE_LIMIT_OFF,
      otpVerify: RATE_LIMIT_OFF,
      ...options.rateLimits
    })),
    Layer.provideMerge(MigrationsLive),
    Layer.provideMerge(options.database ?? (database === "pglite" ? TestDatabase.pglite : TestDatabase.postgres))
  )
  const app = serveWasl.pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(services),
    Layer.provide(Logger.layer([capture])),
    Layer.provide(options.tracer === undefined ? Layer.empty : Layer.succeed(Tracer.Tracer, options.tracer)),
    Layer.provide(Layer.succeed(TrustedProxies, Result.getOrThrow(parseTrustedProxies(options.trustedProxies ?? "")))),
    Layer.provide(options.publicUrl === undefined ? Layer.empty : Layer.succeed(PublicUrl, Result.getOrThrow(parsePublicUrl(options.publicUrl)))),
    Layer.provide(Layer.succeed(MetricsToken, options.metricsToken === undefined ? undefined : Redacted.make(options.metricsToken))),
    Layer.provide(options.sseHeartbeat === undefined ? Layer.empty : Layer.succeed(SseHeartbeat, options.sseHeartbeat)),
    Layer.provide(options.streamsPerUser === undefined ? Layer.empty : Layer.succeed(StreamsPerUser, options.streamsPerUser)),
    Layer.provide(
      options.whatsappWebhook === undefined ? Layer.empty : Layer.succeed(WhatsAppWebhookSettings, {
        appSecret: Redacted.make(options.whatsappWebhook.appSecret),
        verifyToken: Redacted.make(options.whatsappWebhook.verifyToken)
      })
    )
  )
  const runtime = ManagedRuntime.make(app)
  const address = await runtime.runPromise(Effect.gen(function*() {
    return (yield* HttpServer.HttpServer).address
  }))
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  const url = `http://127.0.0.1:${address.port}`
  return {
    url,
    request: makeClient(url),
    logs,
    bootstrap: (input) =>
      runtime.runPromise(bootstrapAccount({
        account: `Account of ${input.email}`,
        email: input.email,
        password: input.password,
        plan: input.plan ?? "business",
        otpCredits: 0
      })),
    query: (text, params = []) =>
      runtime.runPromise(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* Effect.orDie(sql.unsafe(text, [...params]))
      })),
    close: () => runtime.dispose(),
    run: (effect) => runtime.runPromise(effect),
    webhookTransport: webhooks.transport,
    mailOutbox: webhooks.mailOutbox,
    sandboxOutbox: messaging.sandboxOutbox
  }
}

/** One database for two replicas: each build of the returned layer is another client of it. */
export const sharedDatabaseOf = (database: DatabaseKind) =>
  Effect.gen(function*() {
    if (database === "pglite") {
      const embedded = yield* makePgliteTestDatabase
      return () => PgClient.layerFrom(makeEmbeddedPgClient(embedded))
    }
    const created = yield* makePostgresTestDatabase(testPostgresUrl()!)
    return () => PgClient.layer({ ...pgClientOptions, url: Redacted.make(created.url) })
  }) as Effect.Effect<() => Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>, unknown, Scope.Scope>
