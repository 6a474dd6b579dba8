/**
 * Pipelines of deals and tickets over memory, PGlite and PostgreSQL: the built-in default
 * pipelines, a record's pipeline and stage rule on every write path (single calls, batches),
 * filters on pipeline and stage, renaming and reordering keeping records, removing stages and
 * pipelines with and without move_to (the moved records' -updated events), permissions and
 * account isolation.
 */
import { assert, describe, layer } from "@effect/vitest"
import type { Principal } from "@wasl/core/Auth"
import {
  createPipeline,
  createRecord,
  createRecords,
  deletePipeline,
  getPipeline,
  getRecord,
  listPipelines,
  listRecords,
  updatePipeline,
  updateRecord,
  updateRecords
} from "@wasl/core/Records"
import { Effect } from "effect"
import { claimEvents, errorsOf, idOf, newPrincipal, propertiesOf, tagOf, USE_CASE_VARIANTS } from "./use-case-support.ts"

const stage = (internal_name: string, probability: number, extra: { closed?: boolean; won?: boolean } = {}) => ({
  internal_name,
  name: { en: internal_name, ar: internal_name },
  probability,
  closed: extra.closed ?? false,
  won: extra.won ?? false
})

const renewals = {
  name: { en: "Renewals", ar: "التجديدات" },
  stages: [stage("renewal_due", 0.5), stage("renewed", 1, { closed: true, won: true }), stage("churned", 0, { closed: true })]
}

const idsWhere = (principal: Principal, kind: "deal" | "ticket", complex_filters: unknown) =>
  Effect.map(listRecords(principal, kind, { complex_filters } as never), (page) => page.items.map(idOf).sort())

describe.each(USE_CASE_VARIANTS)("pipelines on $name", ({ enabled, layer: services }) => {
  describe.runIf(enabled)("", () => {
    layer(services, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
      it.effect("the built-in pipelines: today's seven deal stages, and new, waiting, in_progress, closed for tickets", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const [deals] = yield* listPipelines(principal, "deal")
          assert.strictEqual(deals!._id, "default")
          assert.strictEqual(deals!.account_id, null)
          assert.deepStrictEqual(deals!.stages.map((s) => s.internal_name), [
            "appointment_scheduled",
            "qualified_to_buy",
            "presentation_scheduled",
            "decision_maker_bought_in",
            "contract_sent",
            "closed_won",
            "closed_lost"
          ])
          assert.deepInclude(deals!.stages[5]!, { closed: true, won: true, probability: 1 })
          const tickets = yield* getPipeline(principal, "ticket", "default")
          assert.deepStrictEqual(tickets.stages.map((s) => s.internal_name), ["new", "waiting", "in_progress", "closed"])
          assert.deepStrictEqual(tickets.stages.map((s) => s.closed), [false, false, false, true])
        }))

      it.effect("a new deal is in the default pipeline, a new ticket in its first stage; a stage of another pipeline is a 422 on the key", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const deal = yield* createRecord(principal, "deal", { deal_name: "Old client", deal_stage: "closed_won" })
          assert.strictEqual(propertiesOf(deal).pipeline, "default")
          assert.strictEqual(propertiesOf(deal).deal_stage, "closed_won")
          const bare = yield* createRecord(principal, "deal", { deal_name: "No stage" })
          assert.strictEqual(propertiesOf(bare).deal_stage, null)
          const ticket = yield* createRecord(principal, "ticket", { ticket_name: "Help" })
          assert.deepInclude(propertiesOf(ticket), { pipeline: "default", ticket_stage: "new" })

          const own = yield* createPipeline(principal, "deal", renewals)
          assert.deepStrictEqual(
            yield* errorsOf(createRecord(principal, "deal", { deal_name: "X", deal_stage: "renewed" })),
            { deal_stage: ["The selected deal stage is invalid."] }
          )
          assert.deepStrictEqual(
            yield* errorsOf(createRecord(principal, "deal", { deal_name: "X", pipeline: "0123456789abcdef01234567" })),
            { pipeline: ["The selected pipeline is invalid."] }
          )
          assert.deepStrictEqual(
            yield* errorsOf(createRecord(principal, "deal", { deal_name: "X", deal_stage: "no_such_stage" })),
            { deal_stage: ["The selected deal stage is invalid."] }
          )
          const renewal = yield* createRecord(principal, "deal", { deal_name: "R", pipeline: own._id, deal_stage: "renewal_due" })
          assert.deepInclude(propertiesOf(renewal), { pipeline: own._id, deal_stage: "renewal_due" })
          assert.deepStrictEqual(
            yield* errorsOf(updateRecord(principal, "ticket", idOf(ticket), { ticket_stage: null })),
            { ticket_stage: ["The ticket stage field is required."] }
          )
        }))

      it.effect("moving to another pipeline needs a stage of it; batches obey the same rule under their input", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const own = yield* createPipeline(principal, "deal", renewals)
          const deal = yield* createRecord(principal, "deal", { deal_name: "Move me", deal_stage: "contract_sent" })
          assert.deepStrictEqual(
            yield* errorsOf(updateRecord(principal, "deal", idOf(deal), { pipeline: own._id })),
            { deal_stage: ["The deal stage field is required."] }
          )
          assert.deepStrictEqual(
            yield* errorsOf(updateRecord(principal, "deal", idOf(deal), { pipeline: own._id, deal_stage: "closed_won" })),
            { deal_stage: ["The selected deal stage is invalid."] }
          )
          const moved = yield* updateRecord(principal, "deal", idOf(deal), { pipeline: own._id, deal_stage: "renewed" })
          assert.deepInclude(propertiesOf(moved), { pipeline: own._id, deal_stage: "renewed" })
          // A stage alone is checked against the record's pipeline.
          assert.deepStrictEqual(
            yield* errorsOf(updateRecord(principal, "deal", idOf(deal), { deal_stage: "closed_lost" })),
            { deal_stage: ["The selected deal stage is invalid."] }
          )
          assert.deepStrictEqual(
            yield* errorsOf(createRecords(principal, "deal", {
              inputs: [{ properties: { deal_name: "Fine" } }, { properties: { deal_name: "Bad", deal_stage: "renewed" } }]
            })),
            { "inputs.1.deal_stage": ["The selected deal stage is invalid."] }
          )
          assert.deepStrictEqual(
            yield* errorsOf(updateRecords(principal, "deal", { inputs: [{ id: idOf(deal), properties: { deal_stage: "closed_won" } }] })),
            { "inputs.0.deal_stage": ["The selected deal stage is invalid."] }
          )
          const page = yield* listRecords(principal, "deal", {})
          assert.strictEqual(page.total, 1)
        }))

      it.effect("lists and complex_filters filter on pipeline and stage", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const own = yield* createPipeline(principal, "deal", renewals)
          const a = idOf(yield* createRecord(principal, "deal", { deal_name: "A", deal_stage: "qualified_to_buy" }))
          const b = idOf(yield* createRecord(principal, "deal", { deal_name: "B", pipeline: own._id, deal_stage: "renewal_due" }))
          const c = idOf(yield* createRecord(principal, "deal", { deal_name: "C", pipeline: own._id, deal_stage: "churned" }))
          assert.deepStrictEqual(yield* idsWhere(principal, "deal", [{ property: "pipeline", operator: "eq", value: own._id }]), [b, c].sort())
          assert.deepStrictEqual(yield* idsWhere(principal, "deal", [{ property: "pipeline", operator: "eq", value: "default" }]), [a])
          assert.deepStrictEqual(
            yield* idsWhere(principal, "deal", [{ property: "deal_stage", operator: "in", value: ["churned", "qualified_to_buy"] }]),
            [a, c].sort()
          )
          const t = idOf(yield* createRecord(principal, "ticket", { ticket_name: "T", ticket_stage: "waiting" }))
          yield* createRecord(principal, "ticket", { ticket_name: "U" })
          assert.deepStrictEqual(yield* idsWhere(principal, "ticket", [{ property: "ticket_stage", operator: "eq", value: "waiting" }]), [t])
        }))

      it.effect("renaming and reordering stages keeps every record; a stage in use goes only with move_to, the records moved with -updated", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const own = yield* createPipeline(principal, "deal", renewals)
          const due = yield* createRecord(principal, "deal", { deal_name: "Due", pipeline: own._id, deal_stage: "renewal_due" })
          yield* claimEvents(principal.accountId)
          const reordered = yield* updatePipeline(principal, "deal", own._id, {
            name: { en: "Renewals 2" },
            stages: [renewals.stages[2], { ...renewals.stages[0], name: { en: "Coming up" } }, renewals.stages[1]]
          })
          assert.deepStrictEqual(reordered.stages.map((s) => s.internal_name), ["churned", "renewal_due", "renewed"])
          assert.strictEqual(propertiesOf(yield* getRecord(principal, "deal", idOf(due))).deal_stage, "renewal_due")
          assert.deepStrictEqual(yield* claimEvents(principal.accountId), [])

          const without = { name: { en: "Renewals" }, stages: [renewals.stages[1], renewals.stages[2]] }
          assert.deepStrictEqual(yield* errorsOf(updatePipeline(principal, "deal", own._id, without)), {
            stages: ["The stages renewal_due still hold records: give move_to, the stage to move them to."]
          })
          assert.deepStrictEqual(yield* errorsOf(updatePipeline(principal, "deal", own._id, { ...without, move_to: "renewal_due" })), {
            move_to: ["The selected move to is invalid."]
          })
          yield* updatePipeline(principal, "deal", own._id, { ...without, move_to: "renewed" })
          const after = yield* getRecord(principal, "deal", idOf(due))
          assert.deepInclude(propertiesOf(after), { pipeline: own._id, deal_stage: "renewed" })
          assert.deepStrictEqual(yield* claimEvents(principal.accountId), [{ name: "deal-updated", payload: after }])
        }))

      it.effect("a pipeline in use is deleted only with move_to, a stage of another pipeline; the default one never", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const own = yield* createPipeline(principal, "ticket", {
            name: { en: "Escalations" },
            stages: [{ internal_name: "escalated", name: { en: "Escalated" } }, { internal_name: "solved", name: { en: "Solved" }, closed: true }]
          })
          const ticket = yield* createRecord(principal, "ticket", { ticket_name: "Angry", pipeline: own._id })
          assert.strictEqual(propertiesOf(ticket).ticket_stage, "escalated")
          assert.deepStrictEqual(yield* errorsOf(deletePipeline(principal, "ticket", own._id, undefined)), {
            _id: ["The pipeline still holds records: give move_to, a stage of another pipeline to move them to."]
          })
          assert.deepStrictEqual(yield* errorsOf(deletePipeline(principal, "ticket", own._id, "solved")), {
            move_to: ["The selected move to is invalid."]
          })
          yield* claimEvents(principal.accountId)
          yield* deletePipeline(principal, "ticket", own._id, "in_progress")
          const moved = yield* getRecord(principal, "ticket", idOf(ticket))
          assert.deepInclude(propertiesOf(moved), { pipeline: "default", ticket_stage: "in_progress" })
          assert.deepStrictEqual(yield* claimEvents(principal.accountId), [{ name: "ticket-updated", payload: moved }])
          assert.strictEqual(yield* tagOf(getPipeline(principal, "ticket", own._id)), "NotFound")
          assert.strictEqual(yield* tagOf(deletePipeline(principal, "ticket", "default", undefined)), "Forbidden")
        }))

      it.effect("the default pipeline can be changed; stage names are unique across the kind's pipelines; bad bodies are 422s", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const builtin = yield* getPipeline(principal, "deal", "default")
          const changed = yield* updatePipeline(principal, "deal", "default", {
            name: { en: "Sales", ar: "المبيعات" },
            stages: [...builtin.stages, stage("on_hold", 0.1)]
          })
          assert.strictEqual(changed.account_id, principal.accountId)
          assert.deepStrictEqual((yield* listPipelines(principal, "deal")).map((p) => p.name.en), ["Sales"])
          assert.deepStrictEqual(
            propertiesOf(yield* createRecord(principal, "deal", { deal_name: "Paused", deal_stage: "on_hold" })).deal_stage,
            "on_hold"
          )
          assert.deepStrictEqual(
            yield* errorsOf(createPipeline(principal, "deal", { name: { en: "Copy" }, stages: [stage("closed_won", 1), stage("fresh", 0), stage("fresh", 0)] })),
            {
              "stages.0.internal_name": ["The stages.0.internal name has already been taken."],
              "stages.2.internal_name": ["The stages.2.internal name field has a duplicate value."]
            }
          )
          assert.deepStrictEqual(
            yield* errorsOf(createPipeline(principal, "deal", {
              stages: [{ internal_name: "Bad Name", name: {}, probability: 2, won: true }]
            })),
            {
              "name": ["The name field is required."],
              "stages.0.internal_name": ["The stages.0.internal name field format is invalid."],
              "stages.0.name.en": ["The stages.0.name.en field is required when stages.0.name.ar is not present."],
              "stages.0.name.ar": ["The stages.0.name.ar field is required when stages.0.name.en is not present."],
              "stages.0.probability": ["The stages.0.probability field must not be greater than 1."],
              "stages.0.won": ["The stages.0.won field can only be true on a closed stage."]
            }
          )
          assert.deepStrictEqual(
            yield* errorsOf(createPipeline(principal, "ticket", { name: { en: "T" }, stages: [{ internal_name: "a", name: { en: "A" }, probability: 1 }] })),
            { "stages.0.probability": ["The stages.0.probability field is prohibited."] }
          )
        }))

      it.effect("writes need property-manage, reads the kind's index permission; another account's pipeline is not found", () =>
        Effect.gen(function*() {
          const owner = yield* newPrincipal()
          const own = yield* createPipeline(owner, "deal", renewals)
          const reader = yield* newPrincipal(["deal-index"])
          assert.strictEqual(yield* tagOf(createPipeline(reader, "deal", renewals)), "Forbidden")
          assert.strictEqual((yield* listPipelines(reader, "deal")).length, 1)
          const stranger = yield* newPrincipal()
          assert.strictEqual(yield* tagOf(getPipeline(stranger, "deal", own._id)), "NotFound")
          assert.strictEqual(yield* tagOf(updatePipeline(stranger, "deal", own._id, renewals)), "NotFound")
          assert.deepStrictEqual(
            yield* errorsOf(createRecord(stranger, "deal", { deal_name: "X", pipeline: own._id, deal_stage: "renewed" })),
            { pipeline: ["The selected pipeline is invalid."] }
          )
          // Another account may use the same stage names.
          yield* createPipeline(stranger, "deal", renewals)
        }))
    })
  })
})
