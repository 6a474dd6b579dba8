/**
 * A record in the trash is hidden from every read path, property-tested on memory, PGlite and
 * PostgreSQL: random mixes of creates, deletes, restores and purges of contacts, each followed by
 * the reads, against a model of which records are live and which are in the trash. After every
 * step a live record is found by its get, the list, a search for its name, a filter on its email
 * and a company's `contact_ids`; a trashed one by none of them but the trash list.
 */
import { assert, describe, layer } from "@effect/vitest"
import type { Principal } from "@wasl/core/Auth"
import {
  attachCompanyContacts,
  createRecord,
  deleteRecord,
  getRecord,
  listRecords,
  listTrash,
  purgeTrashedRecord,
  restoreRecord
} from "@wasl/core/Records"
import { Effect, Exit } from "effect"
import fc from "fast-check"
import { idOf, newPrincipal, propertiesOf, type UseCaseServices, USE_CASE_VARIANTS } from "./use-case-support.ts"

const stepArb = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant("create" as const) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constantFrom("delete" as const, "restore" as const, "purge" as const), pick: fc.nat() }) }
)
const scenarioArb = fc.array(stepArb, { minLength: 4, maxLength: 14 })

type Step = typeof stepArb extends fc.Arbitrary<infer A> ? A : never

const sorted = (ids: Iterable<string>) => [...ids].sort()

/** Every read path against the model: `live` are records, `trashed` are in the trash. */
const checkReads = (principal: Principal, company: string, live: Map<string, string>, trashed: Map<string, string>) =>
  Effect.gen(function*() {
    const listed = yield* listRecords(principal, "contact", { per_page: "100" })
    assert.deepStrictEqual(sorted(listed.items.map(idOf)), sorted(live.keys()))
    assert.deepStrictEqual(sorted(propertiesOf(yield* getRecord(principal, "company", company)).contact_ids as Array<string>), sorted(live.keys()))
    const trash = yield* listTrash(principal, "contact", { per_page: "100" })
    assert.deepStrictEqual(sorted(trash.items.map((e) => e._id)), sorted(trashed.keys()))
    for (const [id, name] of [...live, ...trashed]) {
      const isLive = live.has(id)
      assert.strictEqual(Exit.isSuccess(yield* Effect.exit(getRecord(principal, "contact", id))), isLive)
      const searched = yield* listRecords(principal, "contact", { search: name })
      assert.strictEqual(searched.items.some((r) => idOf(r) === id), isLive)
      const filter = JSON.stringify([{ property: "email", operator: "eq", value: `${name}@example.com` }])
      assert.strictEqual((yield* listRecords(principal, "contact", { complex_filters: filter })).total, isLive ? 1 : 0)
    }
  })

const runScenario = (steps: ReadonlyArray<Step>) =>
  Effect.gen(function*() {
    const principal = yield* newPrincipal()
    const company = idOf(yield* createRecord(principal, "company", { name: "Holder" }))
    const live = new Map<string, string>()
    const trashed = new Map<string, string>()
    let counter = 0
    for (const step of steps) {
      if (step.op === "create") {
        const name = `person${counter++}x`
        const id = idOf(yield* createRecord(principal, "contact", { firstname: name, email: `${name}@example.com` }))
        yield* attachCompanyContacts(principal, company, { contact_ids: [id] })
        live.set(id, name)
      } else {
        const from = step.op === "delete" ? live : trashed
        const ids = [...from.keys()]
        if (ids.length === 0) continue
        const id = ids[step.pick % ids.length]!
        const name = from.get(id)!
        if (step.op === "delete") {
          yield* deleteRecord(principal, "contact", id)
          live.delete(id)
          trashed.set(id, name)
        } else if (step.op === "restore") {
          yield* restoreRecord(principal, "contact", id)
          trashed.delete(id)
          live.set(id, name)
        } else {
          yield* purgeTrashedRecord(principal, "contact", id)
          trashed.delete(id)
        }
      }
      yield* checkReads(principal, company, live, trashed)
    }
  })

describe.each(USE_CASE_VARIANTS)("the trash's invisibility on $name", ({ enabled, layer: services, name }) => {
  describe.runIf(enabled)("", () => {
    layer(services, { excludeTestServices: true, timeout: "300 seconds" })((it) => {
      it.effect("a trashed record is in no read but the trash; a restored one in all of them again", () =>
        Effect.gen(function*() {
          const context = yield* Effect.context<UseCaseServices>()
          yield* Effect.promise(() =>
            fc.assert(
              fc.asyncProperty(scenarioArb, (steps) => Effect.runPromise(Effect.provide(runScenario(steps), context))),
              { numRuns: name === "memory" ? 60 : 8 }
            )
          )
        }), { timeout: 300_000 })
    })
  })
})
