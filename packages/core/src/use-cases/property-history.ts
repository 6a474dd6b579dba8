/** `GET /api/{kind}/{_id}/history`: a record's property history (records/property-history.ts writes it). */
import { Effect } from "effect"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, type NotFound, ValidationFailed } from "../errors.ts"
import type { ListQueryInput } from "../records/list-query-input.ts"
import type { ObjectKind } from "../records/object-kind.ts"
import { type Page, parsePageParams } from "../records/pagination.ts"
import { historyEntryJson, type HistoryEntryJson, PropertyHistoryRepository } from "../records/property-history-repository.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import type { RecordRepository } from "../records/record-repository.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { authorize } from "./authenticate.ts"
import { customOf, findRecord } from "./record-lookup.ts"

/** What is wrong with `property` of the query (a string when given: one property's name). */
const propertyErrors = (query: ListQueryInput): Record<string, Array<string>> => {
  const value = Object.hasOwn(query, "property") ? query.property : undefined
  return value === undefined || value === null || typeof value === "string"
    ? {}
    : { property: [LaravelMessage.string("property")] }
}

/**
 * `GET /api/{kind}/{_id}/history`: one page (`page`, `per_page`) of the record's property changes,
 * newest first, of one property when the query names it (`property`). Needs `<kind>-show`. Fails
 * {@link Forbidden} without it, {@link NotFound} for a record the account does not have,
 * {@link ValidationFailed} for a bad `page`, `per_page` or `property`.
 */
export const listHistory: (
  principal: Principal,
  kind: ObjectKind,
  recordId: string,
  query: ListQueryInput
) => Effect.Effect<
  Page<HistoryEntryJson>,
  Forbidden | NotFound | ValidationFailed,
  PropertyHistoryRepository | PropertyRepository | RecordRepository
> = Effect.fn("listHistory")(function*(
  principal: Principal,
  kind: ObjectKind,
  recordId: string,
  query: ListQueryInput
) {
  yield* authorize(principal, `${kind}-show`)
  yield* findRecord(principal.accountId, kind, recordId, yield* customOf(principal.accountId, kind))
  // Every bad key of the query at once, as a list's.
  const wrong = propertyErrors(query)
  const params = yield* Effect.mapError(parsePageParams(query), (failure) => new ValidationFailed({ errors: { ...failure.errors, ...wrong } }))
  if (Object.keys(wrong).length > 0) return yield* Effect.fail(new ValidationFailed({ errors: wrong }))
  const property = typeof query.property === "string" ? query.property : undefined
  const page = yield* PropertyHistoryRepository.use((repo) =>
    repo.page({ accountId: principal.accountId, kind, recordId, property, ...params })
  )
  return { items: page.rows.map(historyEntryJson), total: page.total, ...params } satisfies Page<HistoryEntryJson>
})
