/**
 * `POST /api/{kind}/{_id}/merge` `{ from }`: two records of one customer made one, for contacts,
 * companies, deals and tickets. In one transaction, both records held: the record at `_id` keeps
 * its id and its values, and each of its properties without a value takes the other's (built-in
 * and custom, derived ones aside), each kept in its property history with the source `merge`; the other's notes and links (and a contact's channel entries
 * and messages) move over; the other goes to the trash with `merged_into`, so a mistaken merge
 * can be undone by restoring it. `<kind>-updated` fires for the kept record, `<kind>-deleted` for
 * the other, and `-updated` for the records on the other side of a link that moved.
 */
import { Effect } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, NotFound, ValidationFailed } from "../errors.ts"
import type { Outbox } from "../events/outbox.ts"
import { cleanInput, ownValue } from "../records/body-input.ts"
import { DERIVED_PROPERTIES, definitionsOf } from "../records/builtin-properties.ts"
import type { ObjectKind } from "../records/object-kind.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import { recordHistory } from "../records/property-history.ts"
import type { PropertyHistoryRepository } from "../records/property-history-repository.ts"
import { RecordMergeStore } from "../records/record-merge-store.ts"
import { RecordRepository } from "../records/record-repository.ts"
import type { RecordJson } from "../records/record-shape.ts"
import { TrashRepository } from "../records/trash-repository.ts"
import type { StoredValue } from "../records/value-validation.ts"
import { Transactor } from "../transactor.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { authorize } from "./authenticate.ts"
import { appendOtherSidesUpdated } from "./link-derivation.ts"
import { appendEvent, customOf, findRecord, isRecordId, orNotFound, shapeOf } from "./record-lookup.ts"

/** The kinds whose records can be merged. */
export const MERGE_KINDS: ReadonlyArray<ObjectKind> = ["contact", "company", "deal", "ticket"]

const invalid = (message: string) => new ValidationFailed({ errors: { from: [message] } })

/** The body's `from`: a record id other than `into` (its record is looked for afterwards). */
const fromOf = (body: unknown, into: string): Effect.Effect<string, ValidationFailed> => {
  const input = cleanInput(body)
  const value = typeof input === "object" && input !== null && !Array.isArray(input) ? ownValue(input, "from") : undefined
  if (value === undefined || value === null || value === "") return Effect.fail(invalid(LaravelMessage.required("from")))
  if (typeof value !== "string") return Effect.fail(invalid(LaravelMessage.string("from")))
  if (value === into) return Effect.fail(invalid("The from field and _id must be different."))
  return Effect.succeed(value)
}

/**
 * Merges the record `from` names into the record at `id` (see the module comment). Needs
 * `<kind>-update` and `<kind>-delete`. Answers the kept record. Fails {@link Forbidden} without
 * them, {@link NotFound} for a record at `id` the account does not have (or a kind that does not
 * merge), {@link ValidationFailed} on `from` (missing, the same record, not one of the account's
 * records of the kind).
 */
export const mergeRecords: (
  principal: Principal,
  kind: ObjectKind,
  id: string,
  body: unknown
) => Effect.Effect<
  RecordJson,
  Forbidden | NotFound | ValidationFailed,
  | Outbox
  | PropertyHistoryRepository
  | PropertyRepository
  | RecordMergeStore
  | RecordRepository
  | SecureRandom.SecureRandom
  | Transactor
  | TrashRepository
> = Effect.fn("mergeRecords")(function*(principal: Principal, kind: ObjectKind, id: string, body: unknown) {
  yield* authorize(principal, `${kind}-update`)
  yield* authorize(principal, `${kind}-delete`)
  if (!MERGE_KINDS.includes(kind) || !isRecordId(id)) return yield* new NotFound()
  const from = yield* fromOf(body, id)
  const accountId = principal.accountId
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const pair = { accountId, kind, into: id, from }
    const held = yield* RecordMergeStore.use((store) => store.hold(pair))
    if (!held.includes(id)) return yield* new NotFound()
    if (!isRecordId(from) || !held.includes(from)) return yield* invalid(LaravelMessage.selectedInvalid("from"))
    const custom = yield* customOf(accountId, kind)
    const kept = yield* findRecord(accountId, kind, id, custom)
    const other = yield* Effect.orDie(findRecord(accountId, kind, from, custom))
    const derived = new Set(DERIVED_PROPERTIES[kind])
    const patch: Record<string, StoredValue> = {}
    for (const definition of definitionsOf(kind, custom)) {
      const name = definition.internal_name
      const theirs = other.record.values[name]
      if (derived.has(name) || theirs === undefined || kept.record.values[name] !== undefined) continue
      patch[name] = theirs
    }
    const repo = yield* RecordRepository
    if (Object.keys(patch).length > 0) {
      const updated = yield* orNotFound(yield* repo.update({ accountId, kind, id, custom, patch }))
      yield* recordHistory({
        accountId,
        kind,
        recordId: id,
        before: kept.record.values,
        after: updated.record.values,
        userId: principal.userId,
        source: "merge"
      })
    }
    const gained = yield* RecordMergeStore.use((store) => store.moveOver(pair))
    const otherJson = shapeOf(kind, other, custom)
    yield* TrashRepository.use((trash) =>
      trash.trash({ accountId, kind, id: from }, { record: otherJson, deletedBy: principal.userId, mergedInto: id })
    ).pipe(Effect.flatMap(orNotFound))
    const json = shapeOf(kind, yield* findRecord(accountId, kind, id, custom), custom)
    yield* appendEvent(accountId, kind, "record", "updated", json)
    yield* appendEvent(accountId, kind, "record", "deleted", otherJson)
    yield* appendOtherSidesUpdated(accountId, kind, id, gained)
    return json
  }))
})
