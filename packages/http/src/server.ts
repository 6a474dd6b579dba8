/**
 * Wasl's HTTP application as layers: its routes to mount in a host's Effect HTTP app beside the
 * host's own, or the whole application to serve alone.
 */
import { Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { OBJECT_PATHS } from "@wasl/core"
import { WaslApi } from "./api.ts"
import { makeBoundary, makeNotFound } from "./boundary.ts"
import { AuthHandlers } from "./handlers/auth.ts"
import { MeHandlers } from "./handlers/me.ts"
import { NoteHandlers } from "./handlers/notes.ts"
import { PropertyHandlers } from "./handlers/properties.ts"
import { MessagingHandlers } from "./handlers/messaging.ts"
import { OtpHandlers } from "./handlers/otp.ts"
import { RecordLinkHandlers } from "./handlers/record-links.ts"
import { RecordHandlers } from "./handlers/records.ts"
import { TokenHandlers } from "./handlers/tokens.ts"
import { routeTableOf } from "./route-table.ts"
import { AuthenticationLive } from "./security.ts"
import { WebhookHandlers } from "./handlers/webhooks.ts"
import { DeliveryHandlers } from "./handlers/deliveries.ts"
import { NotificationHandlers } from "./handlers/notifications.ts"

/** Where the OpenAPI 3.1 document of the API is served. */
export const OPENAPI_PATH = "/api/openapi.json"

/** Where the API reference page is served. */
export const DOCS_PATH = "/docs"

const routes = routeTableOf(WaslApi, { kind: OBJECT_PATHS })

const ApiRoutes = HttpApiBuilder.layer(WaslApi, { openapiPath: OPENAPI_PATH }).pipe(
  Layer.provide([MeHandlers, AuthHandlers, TokenHandlers, PropertyHandlers, MessagingHandlers, OtpHandlers, RecordLinkHandlers, NoteHandlers, RecordHandlers, WebhookHandlers, DeliveryHandlers, NotificationHandlers]),
  Layer.provide(AuthenticationLive)
)

const DocsRoute = HttpApiScalar.layer(WaslApi, { path: DOCS_PATH })

/**
 * Wasl's routes — the API under `/api`, its OpenAPI document and the reference page at `/docs` —
 * each behind Wasl's boundary (its error bodies, body limits, request ids and access log). Merge
 * it into a host's `HttpRouter` application next to the host's routes; provide the Wasl services
 * (a layer of `@wasl/adapters`). The host's router should ignore trailing slashes
 * (`waslRouterConfig`), as Wasl's clients may send them.
 */
export const WaslRoutes = Layer.mergeAll(ApiRoutes, DocsRoute).pipe(Layer.provide(makeBoundary(routes).layer))

/** Wasl alone: its routes, and 404/405 answers in Wasl's error body for any other request. */
export const WaslApp = Layer.mergeAll(WaslRoutes, makeNotFound(routes))

/** Router options Wasl's routes expect: a trailing slash is accepted wherever the path exists without it. */
export const waslRouterConfig = { ignoreTrailingSlash: true } as const

/** Serves `WaslApp` on the `HttpServer` provided (Node's in production, a test server in tests). */
export const serveWasl = HttpRouter.serve(WaslApp, { routerConfig: waslRouterConfig, disableLogger: true, disableListenLog: true })
