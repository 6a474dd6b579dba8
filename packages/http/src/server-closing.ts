/**
 * The moment the server starts shutting down, for responses that would otherwise never end (the
 * notification stream): `serveWasl` completes it before the HTTP server's graceful close, which
 * would wait for every open response up to its timeout.
 */
import { Context, Effect } from "effect"

/**
 * An effect that completes when the server starts shutting down. `serveWasl` provides it; mounted
 * elsewhere (a host's own server) it never completes, and the host's shutdown ends the streams.
 */
export const ServerClosing: Context.Reference<Effect.Effect<void>> = Context.Reference<Effect.Effect<void>>(
  "@wasl/http/ServerClosing",
  { defaultValue: () => Effect.never }
)
