/** The HTTP application: the contract's routes, OpenAPI, docs and the boundary, ready to serve. */
import { Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { OBJECT_PATHS } from "@wasl/core"
import { WaslApi } from "./api.ts"
import { makeBoundary } from "./boundary.ts"
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

export const OPENAPI_PATH = "/api/openapi.json"

const ApiRoutes = HttpApiBuilder.layer(WaslApi, { openapiPath: OPENAPI_PATH }).pipe(
  Layer.provide([MeHandlers, AuthHandlers, TokenHandlers, PropertyHandlers, MessagingHandlers, OtpHandlers, RecordLinkHandlers, NoteHandlers, RecordHandlers, WebhookHandlers, DeliveryHandlers, NotificationHandlers]),
  Layer.provide(AuthenticationLive)
)

const DocsRoute = HttpApiScalar.layer(WaslApi, { path: "/docs" })

/** Every route plus the global boundary; needs the core ports (repositories, hashers, randomness). */
export const HttpAppLive = Layer.mergeAll(ApiRoutes, DocsRoute, makeBoundary(routeTableOf(WaslApi, { kind: OBJECT_PATHS })))

/** Router options shared by every way of serving the app. */
export const routerConfig = { ignoreTrailingSlash: true } as const

/** Serve the app on whatever HttpServer is provided (Node in production, a test server in tests). */
export const serveHttpApp = HttpRouter.serve(HttpAppLive, { routerConfig, disableLogger: true, disableListenLog: true })
