/**
 * Wasl's webhook delivery worker as a library: it fans outbox events out to webhook deliveries,
 * sends them signed with retries, mails the Webhook Deactivated notices, refunds stale OTP
 * reservations and prunes the rows whose retention ran out, in the caller's Effect scope. Run
 * any number of workers over one database.
 *
 * This entry point exports: the worker as a layer (`DeliveryWorkerLive`, or `runDeliveryWorker`
 * in a scope) with its options and services; its loops (`WorkerLoops`); its readiness
 * (`WorkerReadiness`, `workerReady`) and health routes (`WorkerHealthRoutes`); its metrics. The package imports no
 * adapter (the build refuses one): a host provides the core's services, usually with a layer of
 * `@wasl/adapters`.
 *
 * @example
 * ```ts
 * import { NodeRuntime } from "@effect/platform-node"
 * import { Layer } from "effect"
 * import { WaslEmbedded } from "@wasl/adapters/Deployment"
 * import { DeliveryWorkerLive } from "@wasl/worker"
 *
 * DeliveryWorkerLive().pipe(Layer.provide(WaslEmbedded.layer()), Layer.launch, NodeRuntime.runMain)
 * ```
 *
 * @module
 */
export * from "./delivery-worker.ts"
export * from "./media-fetch.ts"
export * from "./worker-health-routes.ts"
export * from "./worker-readiness.ts"
export * from "./worker-loops.ts"
export * from "./worker-metrics.ts"
