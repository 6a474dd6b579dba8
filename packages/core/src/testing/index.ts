/**
 * `@wasl/core/testing`: property-test Wasl's state machines (webhook, delivery, managed OTP) from
 * your own project, with fast-check.
 *
 * - Arbitraries of each machine's states and inputs: webhook URLs, subscriptions and secrets;
 *   attempt responses (statuses, failed connections, timeouts) and retry schedules; OTP codes,
 *   lifetimes and verifications; and each model's triggers.
 * - Reference models written from the rules (`webhookModel`, `deliveryModel`, `otpModel`) and the
 *   `fc.commands` that drive a system under test against them, comparing answers, stored state and
 *   invariants after every step. The default systems run the core's real transitions; plug in your
 *   own through `SystemUnderTest`, or only your persistence through `SnapshotStore`.
 * - Clock steps that land on the instants where the rules turn (a code's expiry, a delivery's next
 *   attempt, and 1 ms either side), besides random ones.
 * - TestClock helpers: walk a retry schedule, move to a delivery's next attempt or a code's expiry.
 *
 * fast-check is an optional peer dependency: install it to use this entry point.
 *
 * @example
 * ```ts
 * import * as fc from "fast-check"
 * import { webhookCommands, webhookModelSetup } from "@wasl/core/testing"
 *
 * fc.assert(fc.property(webhookCommands(), (cmds) => fc.modelRun(webhookModelSetup, cmds)))
 * ```
 *
 * @module
 */
export * from "./clock.ts"
export * from "./delivery-arbitraries.ts"
export * from "./delivery-commands.ts"
export * from "./delivery-model.ts"
export * from "./delivery-system.ts"
export * from "./model-run.ts"
export * from "./otp-arbitraries.ts"
export * from "./otp-commands.ts"
export * from "./otp-model.ts"
export * from "./otp-system.ts"
export * from "./reference-model.ts"
export * from "./retry-walk.ts"
export * from "./snapshot-store.ts"
export * from "./time-arbitraries.ts"
export * from "./webhook-arbitraries.ts"
export * from "./webhook-commands.ts"
export * from "./webhook-model.ts"
export * from "./webhook-system.ts"
