/** The services the HTTP API runs on: Wasl's ports, and what the HTTP platform provides. */
import type { FileSystem, Path } from "effect"
import type { Etag, HttpPlatform } from "effect/http"
import type { Mailer, QueueSignals, WaslServices } from "@wasl/core"

/**
 * The Wasl services the HTTP API needs: every port of `WaslServices` but the two only the delivery
 * worker uses (`QueueSignals`, to wake it, and `Mailer`). An adapter layer of `@wasl/adapters`
 * provides them all.
 */
export type WaslHttpServices = Exclude<WaslServices, QueueSignals | Mailer>

/**
 * What Wasl's routes need from the Effect HTTP platform (for the API reference page and file
 * answers): the file system, paths, ETags and the platform's file responses.
 * `NodeHttpServer.layer` of `@effect/platform-node` provides them.
 */
export type WaslPlatformServices = HttpPlatform.HttpPlatform | FileSystem.FileSystem | Path.Path | Etag.Generator
