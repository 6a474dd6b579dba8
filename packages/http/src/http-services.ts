/** The services the HTTP API runs on: Wasl's ports, and what the HTTP platform provides. */
import type { FileSystem, Path } from "effect"
import type { Etag, HttpPlatform } from "effect/http"
import type { WaslServices } from "@wasl/core/Deployment"
import type { QueueSignals } from "@wasl/core/Events"

/**
 * The Wasl services the HTTP API needs: every port of `WaslServices` but the one only the delivery
 * worker uses (`QueueSignals`, to wake it). `Mailer` sends the links a user asks for at once (an
 * e-mail change, a verification, an invitation: its token exists nowhere else). An adapter layer
 * of `@wasl/adapters` provides them all.
 */
export type WaslHttpServices = Exclude<WaslServices, QueueSignals>

/**
 * What Wasl's routes need from the Effect HTTP platform (for the API reference page and file
 * answers): the file system, paths, ETags and the platform's file responses.
 * `NodeHttpServer.layer` of `@effect/platform-node` provides them.
 */
export type WaslPlatformServices = HttpPlatform.HttpPlatform | FileSystem.FileSystem | Path.Path | Etag.Generator
