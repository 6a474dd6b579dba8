/**
 * Portability smoke test of `@wasl/core/testing`: the kit (effect, fast-check and the core's own
 * files) runs under Deno: the three model-based properties, and a retry schedule walked on the
 * TestClock. Run from the repository root:
 *   npx deno test packages/core/deno/testing_smoke_test.ts
 */
import { Duration, Effect } from "effect"
import * as fc from "fast-check"
import {
  deliveryCommands,
  deliveryModelSetup,
  otpCommands,
  otpModelSetup,
  retrySchedule,
  walkRetrySchedule,
  webhookCommands,
  webhookModelSetup,
  withTestClock
} from "../src/testing/index.ts"

Deno.test("the webhook, delivery and OTP models hold over the core's transitions", () => {
  fc.assert(fc.property(webhookCommands(), (cmds) => fc.modelRun(webhookModelSetup, cmds)), { numRuns: 50 })
  fc.assert(
    fc.property(retrySchedule(), deliveryCommands(), (schedule, cmds) => fc.modelRun(() => deliveryModelSetup({ schedule }), cmds)),
    { numRuns: 50 }
  )
  fc.assert(fc.property(otpCommands(), (cmds) => fc.modelRun(otpModelSetup, cmds)), { numRuns: 50 })
})

Deno.test("the default retry schedule walked on the TestClock", async () => {
  const walk = await Effect.runPromise(withTestClock(walkRetrySchedule()))
  const waited = walk.map((a) => Duration.toMillis(a.waited) / 60_000).join(",")
  if (waited !== "0,5,30,60,180,1440") throw new Error(`waited ${waited} minutes`)
})
