/**
 * Wasl's HTTP application as layers: its routes to mount in a host's Effect HTTP app beside the
 * host's own, or the whole application to serve alone.
 */
import { Deferred, Effect, Layer } from "effect"
import { HttpRouter, type HttpServer } from "effect/http"
import { HttpApiBuilder, HttpApiScalar, OpenApi } from "effect/http-api"
import { PublicUrl } from "@wasl/core/Deployment"
import { OBJECT_PATHS } from "@wasl/core/Records"
import { WaslApi } from "./api.ts"
import { makeBoundary, makeNotFound } from "./boundary.ts"
import type { WaslHttpServices, WaslPlatformServices } from "./http-services.ts"
import { AuthHandlers } from "./handlers/auth.ts"
import { MeHandlers } from "./handlers/me.ts"
import { AccountHandlers } from "./handlers/accounts.ts"
import { EmailLinkHandlers } from "./handlers/email-links.ts"
import { NoteHandlers } from "./handlers/notes.ts"
import { HistoryHandlers } from "./handlers/history.ts"
import { PipelineHandlers } from "./handlers/pipelines.ts"
import { ViewHandlers } from "./handlers/views.ts"
import { TrashHandlers } from "./handlers/trash.ts"
import { MergeHandlers } from "./handlers/merges.ts"
import { PropertyHandlers } from "./handlers/properties.ts"
import { MessagingHandlers } from "./handlers/messaging.ts"
import { PlatformHandlers } from "./handlers/platforms.ts"
import { CampaignHandlers } from "./handlers/campaigns.ts"
import { ConversationHandlers } from "./handlers/conversations.ts"
import { OtpHandlers } from "./handlers/otp.ts"
import { RecordLinkHandlers } from "./handlers/record-links.ts"
import { RecordHandlers } from "./handlers/records.ts"
import { ExportHandlers } from "./handlers/exports.ts"
import { ImportHandlers } from "./handlers/imports.ts"
import { TokenHandlers } from "./handlers/tokens.ts"
import { MAX_PARAM_LENGTH, routeTableOf } from "./route-table.ts"
import { compileApiSchemas } from "./schema-jit.ts"
import { AuthenticationLive } from "./security.ts"
import { ServerClosing } from "./server-closing.ts"
import { WebhookHandlers } from "./handlers/webhooks.ts"
import { DeliveryHandlers } from "./handlers/deliveries.ts"
import { MetricsRoute } from "./metrics-route.ts"
import { NotificationHandlers } from "./handlers/notifications.ts"
import { InvitationHandlers, MemberHandlers } from "./handlers/members.ts"
import { TeamHandlers } from "./handlers/teams.ts"
import { HealthHandlers } from "./handlers/health.ts"
import { WhatsAppHandlers } from "./handlers/whatsapp.ts"

/** Where the OpenAPI 3.1 document of the API is served. */
export const OPENAPI_PATH = "/api/openapi.json"

/** Where the API reference page is served. */
export const DOCS_PATH = "/docs"

const routes = routeTableOf(WaslApi, { kind: OBJECT_PATHS })

// Before `ApiRoutes` builds its codecs, which then take the compiled decoders and encoders.
compileApiSchemas(WaslApi)

/**
 * The API as its OpenAPI document (and the reference page) describe it: served from the public URL
 * when one is set, which holds any path prefix a proxy strips; else from the server that serves
 * the document, as the API itself declares.
 */
const DocumentedApi = Effect.map(PublicUrl, (base) =>
  base === undefined ? WaslApi : WaslApi.annotateMerge(OpenApi.annotations({ servers: [{ url: base, description: "Wasl's public URL" }] })))

const ApiRoutes = Layer.unwrap(Effect.map(DocumentedApi, (api) => HttpApiBuilder.layer(api, { openapiPath: OPENAPI_PATH }))).pipe(
  Layer.provide([MeHandlers, AuthHandlers, TokenHandlers, AccountHandlers, EmailLinkHandlers, MemberHandlers, InvitationHandlers, TeamHandlers, PropertyHandlers, PipelineHandlers, ViewHandlers, TrashHandlers, MergeHandlers, MessagingHandlers, PlatformHandlers, CampaignHandlers, ConversationHandlers, OtpHandlers, RecordLinkHandlers, NoteHandlers, HistoryHandlers, ImportHandlers, RecordHandlers, ExportHandlers, WebhookHandlers, DeliveryHandlers, NotificationHandlers, HealthHandlers, WhatsAppHandlers]),
  Layer.provide(AuthenticationLive)
)

const DocsRoute = Layer.unwrap(Effect.map(DocumentedApi, (api) => HttpApiScalar.layer(api, { path: DOCS_PATH })))

/**
 * Wasl's routes — the API under `/api`, its OpenAPI document and the reference page at `/docs` —
 * each behind Wasl's boundary (its error bodies, body limits, request ids and access log). Merge
 * it into a host's `HttpRouter` application next to the host's routes; provide the Wasl services
 * (a layer of `@wasl/adapters`). The host's router should ignore trailing slashes
 * (`waslRouterConfig`), as Wasl's clients may send them.
 *
 * Beside the Wasl services (`WaslHttpServices`), it needs the router (`HttpRouter.serve` provides
 * it) and what the Effect HTTP platform provides (`WaslPlatformServices`: `NodeHttpServer.layer`
 * provides them).
 *
 * @example
 * ```ts
 * import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
 * import { Deferred, Effect, Layer } from "effect"
 * import { HttpRouter, HttpServerResponse } from "effect/http"
 * import { createServer } from "node:http"
 * import { WaslEmbedded } from "@wasl/adapters/Deployment"
 * import { WaslRoutes, waslRouterConfig } from "@wasl/http"
 *
 * const HostRoutes = HttpRouter.add("GET", "/hello", HttpServerResponse.text("hello"))
 *
 * HttpRouter.serve(Layer.mergeAll(HostRoutes, WaslRoutes), { routerConfig: waslRouterConfig, disableLogger: true }).pipe(
 *   Layer.provide(NodeHttpServer.layer(createServer, { port: 3000 })),
 *   Layer.provide(WaslEmbedded.layer()),
 *   Layer.launch,
 *   NodeRuntime.runMain
 * )
 * ```
 */
export const WaslRoutes: Layer.Layer<
  never,
  never,
  WaslHttpServices | HttpRouter.Request.From<"Requires", WaslHttpServices> | HttpRouter.HttpRouter | WaslPlatformServices
> = Layer.mergeAll(ApiRoutes, DocsRoute).pipe(Layer.provide(makeBoundary(routes).layer))

/**
 * Wasl alone: its routes, its metrics at `/metrics` (`MetricsRoute`), and 404/405 answers in Wasl's error body for any other request. Serve it
 * with `HttpRouter.serve` (as `serveWasl` does) over the Wasl services and an HTTP platform.
 */
export const WaslApp: Layer.Layer<
  HttpRouter.Request<"Error", unknown> | HttpRouter.Request<"GlobalError", unknown>,
  never,
  WaslHttpServices | HttpRouter.Request.From<"Requires", WaslHttpServices> | HttpRouter.HttpRouter | WaslPlatformServices
> = Layer.mergeAll(WaslRoutes, MetricsRoute, makeNotFound(routes))

/**
 * Router options Wasl's routes expect: a trailing slash is accepted wherever the path exists
 * without it; a path parameter is at most `MAX_PARAM_LENGTH` (100) characters, as the 404/405
 * answers for unrouted requests assume.
 */
export const waslRouterConfig: {
  /** A path with a trailing slash routes as the path without it. */
  readonly ignoreTrailingSlash: true
  /** A longer path parameter is no route (404). */
  readonly maxParamLength: number
} = { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH } as const

/**
 * `serveWasl` with a host's own routes beside Wasl's (e.g. a web console under `/app`), in the
 * same router: a request that neither serves is answered by Wasl's 404/405.
 */
export const serveWaslWith = (
  hostRoutes: Layer.Layer<never, never, HttpRouter.HttpRouter>
): Layer.Layer<
  HttpRouter.Request<"Error", unknown> | HttpRouter.Request<"GlobalError", unknown>,
  never,
  WaslHttpServices | HttpServer.HttpServer | WaslPlatformServices
> => Layer.effectContext(Effect.gen(function*() {
  const closing = yield* Deferred.make<void>()
  const served = yield* Layer.build(
    HttpRouter.serve(Layer.mergeAll(WaslApp, hostRoutes), { routerConfig: waslRouterConfig, disableLogger: true, disableListenLog: true }).pipe(
      Layer.provide(Layer.succeed(ServerClosing, Deferred.await(closing)))
    )
  )
  // Added once the server serves, so it runs first at shutdown: the open notification streams end
  // before the server's graceful close, instead of holding it open for its whole timeout.
  yield* Effect.addFinalizer(() => Deferred.succeed(closing, undefined))
  return served
}))

/**
 * Serves `WaslApp` on the `HttpServer` provided (Node's in production, a test server in tests),
 * over the Wasl services (a layer of `@wasl/adapters`).
 *
 * @example
 * ```ts
 * import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
 * import { Deferred, Effect, Layer } from "effect"
 * import { createServer } from "node:http"
 * import { WaslEmbedded } from "@wasl/adapters/Deployment"
 * import { serveWasl } from "@wasl/http"
 *
 * serveWasl.pipe(
 *   Layer.provide(NodeHttpServer.layer(createServer, { port: 3000 })),
 *   Layer.provide(WaslEmbedded.layer()),
 *   Layer.launch,
 *   NodeRuntime.runMain
 * )
 * ```
 */
export const serveWasl: Layer.Layer<
  HttpRouter.Request<"Error", unknown> | HttpRouter.Request<"GlobalError", unknown>,
  never,
  WaslHttpServices | HttpServer.HttpServer | WaslPlatformServices
> = serveWaslWith(Layer.empty)
