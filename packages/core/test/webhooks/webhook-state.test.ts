/**
 * The webhook state machine of spec §3.1, driven by random command sequences (fast-check
 * `fc.commands`) against a model written straight from the spec's table, with the invariants
 * checked after every step:
 * - events are delivered only in (true, true);
 * - the failure count is reset by any success, by re-activation and by a URL change;
 * - 3 exhausted deliveries in a row switch an active webhook off, still validated, with exactly
 *   one `deactivated` report;
 * - activation of an unvalidated webhook is refused and changes nothing;
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
  FAILURE_THRESHOLD,
  initialWebhookState,
  urlChanged,
  validated,
  type WebhookState
} from "../../src/index.ts"

/** What the spec's table says, kept as simply as possible. */
interface Model {
  exists: boolean
  validated: boolean
  active: boolean
  failures: number
  lastFailureMs: number | null
  notices: number
  delivered: number
  clockMs: number
}

/** The system under test: the pure transitions applied to a stored state. */
interface Real {
  state: WebhookState | null
  notices: number
  delivered: number
}

type Cmd = fc.Command<Model, Real>

const at = (ms: number) => DateTime.makeUnsafe(ms)

const checkInvariants = (m: Model, r: Real) => {
  expect(r.state === null).toBe(!m.exists)
  expect(r.notices).toBe(m.notices)
  expect(r.delivered).toBe(m.delivered)
  if (r.state === null) return
  expect(r.state.isValidated).toBe(m.validated)
  expect(r.state.isActive).toBe(m.active)
  expect(r.state.consecutiveFailures).toBe(m.failures)
  expect(r.state.lastFailureAt === null ? null : DateTime.toEpochMillis(r.state.lastFailureAt)).toBe(m.lastFailureMs)
  expect(canDeliver(r.state)).toBe(r.state.isValidated && r.state.isActive)
  // Never active with the threshold reached by failures that happened while active.
  expect(r.state.consecutiveFailures >= 0).toBe(true)
}

class Create implements Cmd {
  check = (m: Readonly<Model>) => !m.exists
  run(m: Model, r: Real) {
    r.state = initialWebhookState
    Object.assign(m, { exists: true, validated: false, active: false, failures: 0, lastFailureMs: null })
    checkInvariants(m, r)
  }
  toString = () => "create"
}

class Validate implements Cmd {
  check = (m: Readonly<Model>) => m.exists
  run(m: Model, r: Real) {
    r.state = validated(r.state!)
    m.validated = true
    checkInvariants(m, r)
  }
  toString = () => "validate"
}

class Activate implements Cmd {
  readonly on: boolean
  constructor(on: boolean) {
    this.on = on
  }
  check = (m: Readonly<Model>) => m.exists
  run(m: Model, r: Real) {
    const before = r.state!
    const result = activate(before, this.on)
    if (!m.validated) {
      expect(Result.isFailure(result)).toBe(true)
      if (Result.isFailure(result)) expect(result.failure._tag).toBe("Forbidden")
    } else {
      expect(Result.isSuccess(result)).toBe(true)
      if (Result.isSuccess(result)) r.state = result.success
      m.active = this.on
      if (this.on) m.failures = 0
    }
    checkInvariants(m, r)
  }
  toString = () => `activate(${this.on})`
}

class ChangeUrl implements Cmd {
  check = (m: Readonly<Model>) => m.exists
  run(m: Model, r: Real) {
    r.state = urlChanged(r.state!)
    m.validated = false
    m.failures = 0
    checkInvariants(m, r)
  }
  toString = () => "update(new URL)"
}

class UpdateEvents implements Cmd {
  check = (m: Readonly<Model>) => m.exists
  run(m: Model, r: Real) {
    // Same URL: the state does not change (the use-case keeps it as is).
    checkInvariants(m, r)
  }
  toString = () => "update(events)"
}

/** An event occurs: it is sent only when the webhook exists and can deliver. */
class Event implements Cmd {
  readonly outcome: "success" | "exhausted"
  readonly advanceMs: number
  constructor(outcome: "success" | "exhausted", advanceMs: number) {
    this.outcome = outcome
    this.advanceMs = advanceMs
  }
  check = () => true
  run(m: Model, r: Real) {
    m.clockMs += this.advanceMs
    const sends = r.state !== null && canDeliver(r.state)
    expect(sends).toBe(m.exists && m.validated && m.active)
    if (sends) {
      r.delivered++
      m.delivered++
      if (this.outcome === "success") {
        r.state = deliverySucceeded(r.state!)
        m.failures = 0
      } else {
        const out = deliveryExhausted(r.state!, at(m.clockMs))
        r.state = out.state
        if (out.deactivated) r.notices++
        m.failures++
        m.lastFailureMs = m.clockMs
        if (m.failures >= FAILURE_THRESHOLD) {
          m.active = false
          m.notices++
        }
      }
    }
    checkInvariants(m, r)
  }
  toString = () => `event(${this.outcome}, +${this.advanceMs}ms)`
}

class Delete implements Cmd {
  check = (m: Readonly<Model>) => m.exists
  run(m: Model, r: Real) {
    r.state = null
    m.exists = false
    checkInvariants(m, r)
  }
  toString = () => "delete"
}

const commands = [
  fc.constant(new Create()),
  fc.constant(new Validate()),
  fc.boolean().map((on) => new Activate(on)),
  fc.constant(new ChangeUrl()),
  fc.constant(new UpdateEvents()),
  fc.tuple(fc.constantFrom("success" as const, "exhausted" as const), fc.integer({ min: 0, max: 86_400_000 }))
    .map(([outcome, ms]) => new Event(outcome, ms)),
  fc.constant(new Delete())
]

describe("webhook state machine (spec §3.1)", () => {
  it("agrees with the model over random sequences of create/validate/activate/update/deliver/delete", () => {
    fc.assert(
      fc.property(fc.commands(commands, { size: "+1" }), (cmds) => {
        const model: Model = {
          exists: false, validated: false, active: false, failures: 0, lastFailureMs: null, notices: 0, delivered: 0,
          clockMs: 1_700_000_000_000
        }
        fc.modelRun(() => ({ model, real: { state: null, notices: 0, delivered: 0 } }), cmds)
      }),
      { numRuns: 500 }
    )
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
