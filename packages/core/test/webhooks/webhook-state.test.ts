/**
 * The webhook state machine (validated × active), driven by random trigger sequences (the testing kit's
 * `webhookCommands`) against the kit's reference model, written straight from the transition table,
 * with the system's answer, the stored webhook and the invariants compared after every step:
 * - events are delivered only in (true, true), and only those subscribed to;
 * - the failure count is reset by any success, by re-activation and by a URL change;
 * - 3 exhausted deliveries in a row switch an active webhook off, still validated, with exactly
 *   one `Deactivated` answer (the one notice);
 * - activation of an unvalidated webhook is refused (Forbidden) and changes nothing;
 * - a deleted webhook gets nothing more.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Result } from "effect"
import * as fc from "fast-check"
import {
  activate,
  canDeliver,
  deliveryExhausted,
  deliverySucceeded,
  initialWebhookState,
  validated
} from "../../src/Webhooks.ts"
import { webhookCommands, webhookModelSetup } from "../../src/testing/index.ts"

const at = (ms: number) => DateTime.makeUnsafe(ms)

describe("webhook state machine", () => {
  it("agrees with the model over random sequences of create/validate/activate/update/deliver/delete", () => {
    fc.assert(fc.property(webhookCommands(), (cmds) => fc.modelRun(webhookModelSetup, cmds)), { numRuns: 500 })
  })

  it("3 exhausted deliveries in a row: inactive, still validated, one notice; success resets the count", () => {
    const on = Result.getOrThrow(activate(validated(initialWebhookState), true))
    const t = at(1_800_000_000_000)
    const one = deliveryExhausted(on, t)
    const two = deliveryExhausted(one.state, t)
    expect([one.deactivated, two.deactivated]).toEqual([false, false])
    expect(deliverySucceeded(two.state).consecutiveFailures).toBe(0)
    const three = deliveryExhausted(two.state, t)
    expect(three.deactivated).toBe(true)
    expect(three.state).toMatchObject({ isValidated: true, isActive: false, consecutiveFailures: 3 })
    expect(DateTime.toEpochMillis(three.state.lastFailureAt!)).toBe(1_800_000_000_000)
    // A straggler exhausting after the switch-off counts but does not notify again.
    expect(deliveryExhausted(three.state, t).deactivated).toBe(false)
    expect(canDeliver(three.state)).toBe(false)
  })
})
