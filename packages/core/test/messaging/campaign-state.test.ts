/**
 * The campaign state machine: model-based property tests over random sequences of events and
 * clock steps (fast-check's `commands` against a reference model of the allowed moves), and the
 * counts of a campaign from its recipients.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Result } from "effect"
import * as fc from "fast-check"
import {
  CAMPAIGN_ENDED,
  type CampaignEvent,
  type CampaignState,
  type CampaignStatus,
  countRecipients,
  initialCampaignStatus,
  transitionCampaign
} from "../../src/Messaging.ts"

const T0 = DateTime.makeUnsafe("2031-05-01T09:00:00.000Z")

/** The reference model: where the campaign is, the clock, and what it recorded. */
interface Model {
  status: CampaignStatus
  nowMillis: number
  readonly scheduledMillis: number | null
  startedMillis: number | null
  completedMillis: number | null
}

/** The real thing: the state the pure transitions produced. */
interface Real {
  state: CampaignState
}

/** Which status the model says `event` leads to from `model`, or undefined when it is refused. */
const allowed = (model: Model, event: CampaignEvent): CampaignStatus | undefined => {
  const ended = CAMPAIGN_ENDED.includes(model.status)
  switch (event._tag) {
    case "Start":
      return model.status === "queued" ||
          (model.status === "scheduled" && model.scheduledMillis !== null && model.nowMillis >= model.scheduledMillis)
        ? "running"
        : undefined
    case "Pause":
      return model.status === "running" ? "paused" : undefined
    case "Resume":
      return model.status === "paused" ? "running" : undefined
    case "Complete":
      return model.status === "running" ? "completed" : undefined
    case "Cancel":
      return ended ? undefined : "canceled"
    case "Fail":
      return ended ? undefined : "failed"
  }
}

const millis = (dt: DateTime.Utc | null) => dt === null ? null : DateTime.toEpochMillis(dt)

class EventCommand implements fc.Command<Model, Real> {
  readonly event: CampaignEvent
  constructor(event: CampaignEvent) {
    this.event = event
  }
  check = () => true
  run(model: Model, real: Real) {
    const now = DateTime.makeUnsafe(model.nowMillis)
    const expected = allowed(model, this.event)
    const before = real.state
    const result = transitionCampaign(real.state, this.event, now)
    if (expected === undefined) {
      assert.isTrue(Result.isFailure(result), `${model.status} must refuse ${this.event._tag}`)
      return
    }
    assert.isTrue(Result.isSuccess(result), `${model.status} must take ${this.event._tag}`)
    const next = Result.getOrThrow(result)
    model.status = expected
    if (expected === "running" && model.startedMillis === null) model.startedMillis = model.nowMillis
    if (CAMPAIGN_ENDED.includes(expected)) model.completedMillis = model.nowMillis
    real.state = next
    assert.strictEqual(next.status, model.status)
    assert.strictEqual(millis(next.updatedAt), model.nowMillis)
    assert.strictEqual(millis(next.scheduledAt), millis(before.scheduledAt), "the schedule never moves")
    // started once: a resume keeps the first start
    if (this.event._tag === "Resume") assert.strictEqual(millis(next.startedAt), millis(before.startedAt))
    if (this.event._tag === "Start") assert.strictEqual(millis(next.startedAt), model.nowMillis)
    assert.strictEqual(millis(next.completedAt), model.completedMillis)
    // a reason only while paused or failed
    if (next.status === "paused" || next.status === "failed") assert.isNotNull(next.reason)
    if (next.status === "running" || next.status === "completed") assert.isNull(next.reason)
  }
  toString = () => this.event._tag
}

class TickCommand implements fc.Command<Model, Real> {
  readonly ms: number
  constructor(ms: number) {
    this.ms = ms
  }
  check = () => true
  run(model: Model) {
    model.nowMillis += this.ms
  }
  toString = () => `tick(${this.ms})`
}

const reason = fc.constantFrom("The monthly message allowance is used up.", "The template is not approved.")
const commands = fc.commands([
  fc.constant(new EventCommand({ _tag: "Start" })),
  reason.map((r) => new EventCommand({ _tag: "Pause", reason: r })),
  fc.constant(new EventCommand({ _tag: "Resume" })),
  fc.constant(new EventCommand({ _tag: "Complete" })),
  fc.constant(new EventCommand({ _tag: "Cancel" })),
  reason.map((r) => new EventCommand({ _tag: "Fail", reason: r })),
  fc.integer({ min: 1, max: 3_600_000 }).map((ms) => new TickCommand(ms))
], { maxCommands: 40 })

describe("campaign state machine", () => {
  it("random sequences of events and time follow the model: allowed moves only, ended campaigns never move", () => {
    fc.assert(
      fc.property(fc.option(fc.integer({ min: -3_600_000, max: 7_200_000 }), { nil: null }), commands, (offset, cmds) => {
        const scheduledAt = offset === null ? null : DateTime.add(T0, { milliseconds: offset })
        const status = initialCampaignStatus(scheduledAt, T0)
        assert.strictEqual(status, scheduledAt !== null && offset! > 0 ? "scheduled" : "queued")
        const state: CampaignState = {
          status,
          reason: null,
          scheduledAt,
          startedAt: null,
          completedAt: null,
          updatedAt: T0
        }
        const model: Model = {
          status,
          nowMillis: DateTime.toEpochMillis(T0),
          scheduledMillis: millis(scheduledAt),
          startedMillis: null,
          completedMillis: null
        }
        fc.modelRun(() => ({ model, real: { state } }), cmds)
      }),
      { numRuns: 500 }
    )
  })

  it("a scheduled campaign starts at its time, not a millisecond before", () => {
    const at = DateTime.add(T0, { hours: 1 })
    const state: CampaignState = { status: "scheduled", reason: null, scheduledAt: at, startedAt: null, completedAt: null, updatedAt: T0 }
    assert.isTrue(Result.isFailure(transitionCampaign(state, { _tag: "Start" }, DateTime.subtract(at, { milliseconds: 1 }))))
    assert.strictEqual(Result.getOrThrow(transitionCampaign(state, { _tag: "Start" }, at)).status, "running")
  })

  it("counts recipients: sent ones by their message's status, a failed message counted sent and failed", () => {
    const counts = countRecipients([
      { status: "sent", messageStatus: "sent" },
      { status: "sent", messageStatus: "delivered" },
      { status: "sent", messageStatus: "read" },
      { status: "sent", messageStatus: "failed" },
      { status: "failed", messageStatus: null },
      { status: "skipped", messageStatus: null },
      { status: "pending", messageStatus: null },
      { status: "sending", messageStatus: null }
    ])
    assert.deepStrictEqual(counts, { recipients: 8, sent: 4, delivered: 2, read: 1, failed: 2, skipped: 1 })
  })
})
