/** The ports the HTTP API runs on. */
import type { Mailer, QueueSignals, WaslServices } from "@wasl/core"

/**
 * The Wasl services the HTTP API needs: every port of `WaslServices` but the two only the delivery
 * worker uses (`QueueSignals`, to wake it, and `Mailer`). An adapter layer of `@wasl/adapters`
 * provides them all.
 */
export type WaslHttpServices = Exclude<WaslServices, QueueSignals | Mailer>
