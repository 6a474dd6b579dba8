/** The contract suite of `SavedViewRepository` (documented on `savedViewRepositoryContract`). */
import { assert, layer } from "@effect/vitest"
import { AccountRepository, MemberRepository, NO_CHOSEN_VIEWS, UserRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import { type SavedView, SavedViewRepository } from "@wasl/core/Records"
import { makeRecordId } from "@wasl/core/Wire"
import { DateTime, Duration, Effect, Exit, type Layer, Option } from "effect"

/** What the layer under `savedViewRepositoryContract` provides. */
export type SavedViewRepositoryContractServices =
  | SavedViewRepository
  | AccountRepository
  | UserRepository
  | MemberRepository
  | Transactor

const T1 = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")
const T2 = DateTime.makeUnsafe("2031-02-03T04:05:07.123Z")

const newId = () => makeRecordId(Date.now() / 1000, globalThis.crypto.getRandomValues(new Uint8Array(8)))

let users = 0

/** A fresh account with two members. */
const newAccount = Effect.gen(function*() {
  const account = yield* (yield* AccountRepository).create({ name: "Views", plan: "business", webhookLimit: null, otpCredits: 0 })
  const repo = yield* UserRepository
  const member = () =>
    Effect.gen(function*() {
      users += 1
      const user = yield* Effect.orDie(repo.create({
        email: `views-${users}-${Date.now()}@example.com`,
        passwordHash: "x",
        firstname: "V",
        lastname: "W"
      }))
      yield* repo.addMembership(account.id, user.id)
      return user.id
    })
  return { accountId: account.id, owner: yield* member(), other: yield* member() }
})

const view = (accountId: number, userId: number, overrides: Partial<SavedView> = {}): SavedView => ({
  _id: newId(),
  kind: "deal",
  account_id: accountId,
  user_id: userId,
  name: "Big deals",
  search: "acme",
  order: "amount",
  direction: "desc",
  complex_filters: [{ property: "amount", operator: "gt", value: 100 }, { or: [{ property: "deal_name", operator: "is_empty" }] }],
  columns: ["deal_name", "amount"],
  shared: false,
  created_at: T1,
  updated_at: T1,
  ...overrides
})

/**
 * The contract of `SavedViewRepository` over every implementation (memory, PGlite, PostgreSQL, or
 * yours): views read back as saved, oldest first; a member lists shared views and their own; a
 * save under a stored `_id` replaces the view and keeps its owner and `created_at`; a member's
 * chosen views read back while the view exists and is one they see, and go with the view and with
 * the membership; nothing reaches another account or kind; a failed transaction stores nothing.
 *
 * Call it at the top level of a vitest test file; each test makes its own accounts.
 *
 * @param name The name of the `describe` block.
 * @param implementation Provides `SavedViewRepository`, `AccountRepository`, `UserRepository`,
 *   `MemberRepository` and `Transactor`.
 */
export const savedViewRepositoryContract = <E>(
  name: string,
  implementation: Layer.Layer<SavedViewRepositoryContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("stores views as saved; a member lists the shared ones and their own, oldest first", () =>
      Effect.gen(function*() {
        const repo = yield* SavedViewRepository
        const { accountId, owner, other } = yield* newAccount
        const later = view(accountId, owner, { created_at: T2, updated_at: T2, shared: true, search: null, order: null, direction: null })
        const first = view(accountId, owner)
        const theirs = view(accountId, other, { complex_filters: [], columns: [] })
        yield* repo.save(later)
        yield* repo.save(first)
        yield* repo.save(theirs)
        assert.deepStrictEqual(yield* repo.listVisible(accountId, "deal", owner), [first, later])
        assert.deepStrictEqual(yield* repo.listVisible(accountId, "deal", other), [theirs, later])
        assert.deepStrictEqual(yield* repo.listVisible(accountId, "contact", owner), [])
        assert.deepStrictEqual(yield* repo.find(accountId, "deal", first._id), Option.some(first))
      }))

    it.effect("a save under a stored id replaces the view and keeps its owner and created_at", () =>
      Effect.gen(function*() {
        const repo = yield* SavedViewRepository
        const { accountId, owner, other } = yield* newAccount
        const stored = view(accountId, owner)
        yield* repo.save(stored)
        const changed: SavedView = {
          ...stored,
          user_id: other,
          name: "Renamed",
          search: null,
          complex_filters: [],
          columns: ["amount"],
          shared: true,
          created_at: T2,
          updated_at: T2
        }
        yield* repo.save(changed)
        assert.deepStrictEqual(yield* repo.find(accountId, "deal", stored._id), Option.some({ ...changed, user_id: owner, created_at: T1 }))
      }))

    it.effect("never reaches another account or kind; delete says whether there was one", () =>
      Effect.gen(function*() {
        const repo = yield* SavedViewRepository
        const mine = yield* newAccount
        const theirs = yield* newAccount
        const deal = view(mine.accountId, mine.owner, { shared: true })
        yield* repo.save(deal)
        assert.deepStrictEqual(yield* repo.listVisible(theirs.accountId, "deal", theirs.owner), [])
        assert.isTrue(Option.isNone(yield* repo.find(theirs.accountId, "deal", deal._id)))
        assert.isTrue(Option.isNone(yield* repo.find(mine.accountId, "ticket", deal._id)))
        assert.isFalse(yield* repo.delete(theirs.accountId, "deal", deal._id))
        assert.isFalse(yield* repo.delete(mine.accountId, "ticket", deal._id))
        assert.isTrue(yield* repo.delete(mine.accountId, "deal", deal._id))
        assert.isFalse(yield* repo.delete(mine.accountId, "deal", deal._id))
        assert.deepStrictEqual(yield* repo.listVisible(mine.accountId, "deal", mine.owner), [])
      }))

    it.effect("a chosen view reads back per member and kind; null clears it; another account's or a missing view leaves none", () =>
      Effect.gen(function*() {
        const repo = yield* SavedViewRepository
        const { accountId, owner, other } = yield* newAccount
        const elsewhere = yield* newAccount
        const deals = view(accountId, owner, { shared: true })
        const contacts = view(accountId, owner, { kind: "contact", complex_filters: [], columns: [] })
        const foreign = view(elsewhere.accountId, elsewhere.owner, { kind: "ticket", shared: true })
        for (const v of [deals, contacts, foreign]) yield* repo.save(v)
        assert.deepStrictEqual(yield* repo.chosen(accountId, owner), NO_CHOSEN_VIEWS)
        yield* repo.choose(accountId, owner, "deal", deals._id)
        yield* repo.choose(accountId, owner, "contact", contacts._id)
        yield* repo.choose(accountId, owner, "ticket", foreign._id)
        yield* repo.choose(accountId, other, "deal", deals._id)
        yield* repo.choose(accountId, other, "ticket", newId())
        assert.deepStrictEqual(yield* repo.chosen(accountId, owner), { contact: contacts._id, deal: deals._id, ticket: null })
        assert.deepStrictEqual(yield* repo.chosen(accountId, other), { contact: null, deal: deals._id, ticket: null })
        assert.deepStrictEqual(yield* repo.chosen(elsewhere.accountId, owner), NO_CHOSEN_VIEWS)
        yield* repo.choose(accountId, owner, "deal", null)
        assert.deepStrictEqual(yield* repo.chosen(accountId, owner), { contact: contacts._id, deal: null, ticket: null })
        const again = view(accountId, owner, { shared: true })
        yield* repo.save(again)
        yield* repo.choose(accountId, other, "deal", again._id)
        assert.deepStrictEqual(yield* repo.chosen(accountId, other), { contact: null, deal: again._id, ticket: null })
      }))

    it.effect("a choice reads as null once its view is deleted, or made private by another member (and back when shared again)", () =>
      Effect.gen(function*() {
        const repo = yield* SavedViewRepository
        const { accountId, owner, other } = yield* newAccount
        const shared = view(accountId, owner, { shared: true })
        const doomed = view(accountId, owner, { kind: "ticket", shared: true })
        yield* repo.save(shared)
        yield* repo.save(doomed)
        yield* repo.choose(accountId, other, "deal", shared._id)
        yield* repo.choose(accountId, other, "ticket", doomed._id)
        yield* repo.choose(accountId, owner, "deal", shared._id)
        yield* repo.save({ ...shared, shared: false })
        yield* repo.delete(accountId, "ticket", doomed._id)
        assert.deepStrictEqual(yield* repo.chosen(accountId, other), NO_CHOSEN_VIEWS)
        assert.deepStrictEqual(yield* repo.chosen(accountId, owner), { contact: null, deal: shared._id, ticket: null })
        yield* repo.save(shared)
        assert.deepStrictEqual(yield* repo.chosen(accountId, other), { contact: null, deal: shared._id, ticket: null })
        // Recreating a view under the deleted id brings no old choice back.
        yield* repo.save(doomed)
        assert.isNull((yield* repo.chosen(accountId, other)).ticket)
      }))

    it.effect("a member's choices go with their membership; their views stay the account's", () =>
      Effect.gen(function*() {
        const repo = yield* SavedViewRepository
        const { accountId, owner, other } = yield* newAccount
        const shared = view(accountId, other, { shared: true })
        yield* repo.save(shared)
        yield* repo.choose(accountId, other, "deal", shared._id)
        yield* repo.choose(accountId, owner, "deal", shared._id)
        assert.isTrue(yield* (yield* MemberRepository).remove(accountId, other))
        yield* (yield* UserRepository).addMembership(accountId, other)
        assert.deepStrictEqual(yield* repo.chosen(accountId, other), NO_CHOSEN_VIEWS)
        assert.deepStrictEqual(yield* repo.chosen(accountId, owner), { contact: null, deal: shared._id, ticket: null })
        assert.deepStrictEqual(yield* repo.listVisible(accountId, "deal", owner), [shared])
      }))

    it.effect("a failed transaction stores nothing", () =>
      Effect.gen(function*() {
        const repo = yield* SavedViewRepository
        const { accountId, owner } = yield* newAccount
        const stored = view(accountId, owner)
        const exit = yield* Effect.exit((yield* Transactor).transaction(
          Effect.andThen(Effect.andThen(repo.save(stored), repo.choose(accountId, owner, "deal", stored._id)), Effect.fail("boom"))
        ))
        assert.isTrue(Exit.isFailure(exit))
        assert.deepStrictEqual(yield* repo.listVisible(accountId, "deal", owner), [])
        assert.deepStrictEqual(yield* repo.chosen(accountId, owner), NO_CHOSEN_VIEWS)
      }))
  })
