/**
 * Saved views over memory, PGlite and PostgreSQL: a view's body refused exactly as the list query
 * is, private and shared views between members, who may change a view, listing with `view=`
 * (the query's own keys winning), the chosen views of `PUT /api/me` and `GET /api/me` (a deleted
 * or no longer visible view reading as null), permissions and account isolation.
 */
import { assert, describe, layer } from "@effect/vitest"
import { currentUser, updateProfile } from "@wasl/core/Accounts"
import type { Permission, Principal } from "@wasl/core/Auth"
import { createRecord, createView, deleteView, getView, listRecords, listViews, updateView } from "@wasl/core/Records"
import { Effect } from "effect"
import { errorsOf, idOf, newMember, newPrincipal, tagOf, USE_CASE_VARIANTS } from "./use-case-support.ts"

const bigDeals = {
  name: "Big deals",
  search: "acme",
  order: "amount",
  direction: "desc",
  complex_filters: [{ property: "amount", operator: "gte", value: 100 }],
  columns: ["deal_name", "amount"]
}

const idsOf = (principal: Principal, query: Record<string, unknown>) =>
  Effect.map(listRecords(principal, "deal", query as never), (page) => page.items.map(idOf))

const chosenOf = (principal: Principal) =>
  Effect.map(currentUser(principal), (me) => [me.contacts_view_id, me.deals_view_id, me.tickets_view_id])

describe.each(USE_CASE_VARIANTS)("saved views on $name", ({ enabled, layer: services }) => {
  describe.runIf(enabled)("", () => {
    layer(services, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
      it.effect("a view is saved, read, changed key by key and deleted", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const view = yield* createView(principal, "deal", { ...bigDeals, search: "  acme  ", order: "forcast_amount" })
          assert.deepInclude(view, {
            account_id: principal.accountId,
            user_id: principal.userId,
            name: "Big deals",
            search: "acme",
            // The list's synonym resolved, as the list orders by it.
            order: "forecast_amount",
            direction: "desc",
            columns: ["deal_name", "amount"],
            shared: false
          })
          assert.deepStrictEqual(view.complex_filters, [{ property: "amount", operator: "gte", value: 100 }])
          assert.deepStrictEqual(yield* getView(principal, "deal", view._id), view)
          const renamed = yield* updateView(principal, "deal", view._id, { name: "Renamed", search: "", shared: true })
          assert.deepInclude(renamed, { name: "Renamed", search: null, order: "forecast_amount", shared: true, created_at: view.created_at })
          assert.deepStrictEqual(renamed.complex_filters, view.complex_filters)
          const bare = yield* createView(principal, "deal", { name: "Everything" })
          assert.deepInclude(bare, { search: null, order: null, direction: null, shared: false })
          assert.deepStrictEqual([bare.complex_filters, bare.columns], [[], []])
          assert.sameMembers((yield* listViews(principal, "deal")).map((v) => v._id), [view._id, bare._id])
          assert.deepStrictEqual(yield* listViews(principal, "contact"), [])
          yield* deleteView(principal, "deal", view._id)
          assert.strictEqual(yield* tagOf(getView(principal, "deal", view._id)), "NotFound")
          assert.strictEqual(yield* tagOf(getView(principal, "contact", bare._id)), "NotFound")
        }))

      it.effect("the list parameters of a view are refused exactly as the list query refuses them", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const bad = [
            { order: "nope" },
            { direction: "up" },
            { search: ["a"] },
            { complex_filters: [{ property: "amount", operator: "gt", value: "many" }] },
            { complex_filters: "[{" },
            { complex_filters: [{ property: "nothing", operator: "eq", value: 1 }, { or: [{ property: "amount" }] }] },
            { order: "nope", direction: "sideways", complex_filters: [{ property: "deal_stage", operator: "between", value: 1 }] }
          ]
          for (const query of bad) {
            const listed = yield* errorsOf(listRecords(principal, "deal", query as never))
            assert.deepStrictEqual(yield* errorsOf(createView(principal, "deal", { name: "Bad", ...query })), listed)
            const view = yield* createView(principal, "deal", { name: "Good" })
            assert.deepStrictEqual(yield* errorsOf(updateView(principal, "deal", view._id, query)), listed)
          }
        }))

      it.effect("its own keys: name required and at most 255 characters, columns distinct properties of the kind, shared a boolean", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          assert.deepStrictEqual(yield* errorsOf(createView(principal, "deal", { search: "x" })), {
            name: ["The name field is required."]
          })
          assert.deepStrictEqual(
            yield* errorsOf(createView(principal, "deal", { name: "x".repeat(256), columns: ["amount", "email", "amount", 3], shared: "maybe" })),
            {
              name: ["The name field must not be greater than 255 characters."],
              "columns.1": ["The selected columns.1 is invalid."],
              "columns.2": ["The columns.2 field has a duplicate value."],
              "columns.3": ["The columns.3 field must be a string."],
              shared: ["The shared field must be true or false."]
            }
          )
          assert.deepStrictEqual(yield* errorsOf(createView(principal, "contact", { name: "C", columns: "email" })), {
            columns: ["The columns field must be an array."]
          })
          const view = yield* createView(principal, "contact", { name: "C", columns: ["email", "created_at"], shared: "1" })
          assert.deepInclude(view, { shared: true })
          assert.deepStrictEqual(yield* errorsOf(updateView(principal, "contact", view._id, { name: null })), {
            name: ["The name field is required."]
          })
        }))

      it.effect("a private view is its owner's alone; a shared one the account's, changed by others only with property-manage", () =>
        Effect.gen(function*() {
          const owner = yield* newPrincipal()
          const reader = yield* newMember(owner, ["deal-index"])
          const manager = yield* newMember(owner, ["deal-index", "property-manage"])
          const mine = yield* createView(owner, "deal", { name: "Mine" })
          const ours = yield* createView(owner, "deal", { name: "Ours", shared: true })
          const theirs = yield* createView(reader, "deal", { name: "Theirs", shared: true })
          assert.sameMembers((yield* listViews(reader, "deal")).map((v) => v.name), ["Ours", "Theirs"])
          for (const other of [reader, manager]) {
            assert.strictEqual(yield* tagOf(getView(other, "deal", mine._id)), "NotFound")
            assert.strictEqual(yield* tagOf(updateView(other, "deal", mine._id, { name: "Took it" })), "NotFound")
            assert.strictEqual(yield* tagOf(deleteView(other, "deal", mine._id)), "NotFound")
          }
          assert.strictEqual(yield* tagOf(updateView(reader, "deal", ours._id, { name: "Took it" })), "Forbidden")
          assert.strictEqual(yield* tagOf(deleteView(reader, "deal", ours._id)), "Forbidden")
          assert.strictEqual((yield* updateView(reader, "deal", theirs._id, { name: "Still mine" })).name, "Still mine")
          const changed = yield* updateView(manager, "deal", ours._id, { name: "Tidied" })
          assert.deepInclude(changed, { name: "Tidied", user_id: owner.userId })
          yield* deleteView(manager, "deal", theirs._id)
          assert.sameMembers((yield* listViews(owner, "deal")).map((v) => v.name), ["Mine", "Tidied"])
        }))

      it.effect("every endpoint needs the kind's index permission", () =>
        Effect.gen(function*() {
          const owner = yield* newPrincipal()
          const view = yield* createView(owner, "contact", { name: "People", shared: true })
          const dealsOnly = yield* newMember(owner, ["deal-index", "contact-show", "property-manage"] satisfies ReadonlyArray<Permission>)
          assert.strictEqual(yield* tagOf(listViews(dealsOnly, "contact")), "Forbidden")
          assert.strictEqual(yield* tagOf(getView(dealsOnly, "contact", view._id)), "Forbidden")
          assert.strictEqual(yield* tagOf(createView(dealsOnly, "contact", { name: "Mine" })), "Forbidden")
          assert.strictEqual(yield* tagOf(updateView(dealsOnly, "contact", view._id, { name: "X" })), "Forbidden")
          assert.strictEqual(yield* tagOf(deleteView(dealsOnly, "contact", view._id)), "Forbidden")
          assert.lengthOf(yield* listViews(dealsOnly, "deal"), 0)
        }))

      it.effect("a list with view= takes the view's search, filters and order, under the query's own keys", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const deal = (deal_name: string, amount: number) => Effect.map(createRecord(principal, "deal", { deal_name, amount }), idOf)
          const small = yield* deal("Acme small", 50)
          const big = yield* deal("Acme big", 500)
          const bigger = yield* deal("Acme bigger", 900)
          const other = yield* deal("Globex", 700)
          const view = yield* createView(principal, "deal", bigDeals)
          assert.deepStrictEqual(yield* idsOf(principal, { view: view._id }), [bigger, big])
          assert.deepStrictEqual(yield* idsOf(principal, { view: view._id, direction: "asc" }), [big, bigger])
          // A key the query gives, even empty, wins over the view's.
          assert.deepStrictEqual(yield* idsOf(principal, { view: view._id, search: null }), [bigger, other, big])
          assert.deepStrictEqual(
            yield* idsOf(principal, { view: view._id, complex_filters: [{ property: "amount", operator: "lt", value: "100" }] }),
            [small]
          )
          assert.strictEqual((yield* listRecords(principal, "deal", { view: view._id, per_page: "1" })).total, 2)
          assert.deepStrictEqual(yield* idsOf(principal, { view: null, order: "amount" }), [bigger, other, big, small])
        }))

      it.effect("a view the caller does not see is a 422 on view, with the query's other bad keys", () =>
        Effect.gen(function*() {
          const owner = yield* newPrincipal()
          const other = yield* newMember(owner)
          const stranger = yield* newPrincipal()
          const mine = yield* createView(owner, "deal", { name: "Mine" })
          const contacts = yield* createView(owner, "contact", { name: "People", shared: true })
          const invalid = { view: ["The selected view is invalid."] }
          assert.deepStrictEqual(yield* errorsOf(listRecords(other, "deal", { view: mine._id })), invalid)
          assert.deepStrictEqual(yield* errorsOf(listRecords(stranger, "deal", { view: mine._id })), invalid)
          assert.deepStrictEqual(yield* errorsOf(listRecords(owner, "deal", { view: contacts._id })), invalid)
          assert.deepStrictEqual(yield* errorsOf(listRecords(owner, "deal", { view: "not-an-id" })), invalid)
          assert.deepStrictEqual(yield* errorsOf(listRecords(owner, "deal", { view: ["x"], order: "nope" } as never)), {
            ...invalid,
            order: ["The selected order is invalid."]
          })
          assert.strictEqual(yield* tagOf(getView(stranger, "deal", mine._id)), "NotFound")
        }))

      it.effect("PUT /api/me chooses a view per kind the user sees; GET /api/me shows it until it is deleted or made private", () =>
        Effect.gen(function*() {
          const owner = yield* newPrincipal()
          const other = yield* newMember(owner)
          const stranger = yield* newPrincipal()
          const contacts = yield* createView(owner, "contact", { name: "People", shared: true })
          const deals = yield* createView(owner, "deal", { name: "Deals", shared: true })
          const tickets = yield* createView(owner, "ticket", { name: "Mine" })
          const foreign = yield* createView(stranger, "ticket", { name: "Foreign", shared: true })
          assert.deepStrictEqual(yield* chosenOf(owner), [null, null, null])
          const me = yield* updateProfile(owner, { contacts_view_id: contacts._id, deals_view_id: deals._id, tickets_view_id: tickets._id })
          assert.deepStrictEqual([me.contacts_view_id, me.deals_view_id, me.tickets_view_id], [contacts._id, deals._id, tickets._id])
          assert.deepStrictEqual(
            yield* errorsOf(updateProfile(other, {
              firstname: "",
              contacts_view_id: deals._id,
              deals_view_id: deals._id,
              tickets_view_id: tickets._id
            })),
            {
              firstname: ["The firstname field is required."],
              contacts_view_id: ["The selected contacts view id is invalid."],
              tickets_view_id: ["The selected tickets view id is invalid."]
            }
          )
          // A refused body changes nothing.
          assert.deepStrictEqual(yield* chosenOf(other), [null, null, null])
          assert.deepStrictEqual(
            yield* errorsOf(updateProfile(other, { tickets_view_id: foreign._id })),
            { tickets_view_id: ["The selected tickets view id is invalid."] }
          )
          yield* updateProfile(other, { contacts_view_id: contacts._id, deals_view_id: deals._id })
          assert.deepStrictEqual(yield* chosenOf(other), [contacts._id, deals._id, null])

          yield* updateView(owner, "deal", deals._id, { shared: false })
          yield* deleteView(owner, "contact", contacts._id)
          assert.deepStrictEqual(yield* chosenOf(other), [null, null, null])
          assert.deepStrictEqual(yield* chosenOf(owner), [null, deals._id, tickets._id])
          yield* updateProfile(owner, { deals_view_id: null })
          assert.deepStrictEqual(yield* chosenOf(owner), [null, null, tickets._id])
        }))
    })
  })
})
