/**
 * The trash of each kind: a delete moves a record there (record-writes.ts) for
 * `WASL_RETENTION_TRASH`; these list it, bring a record back and purge one for good.
 *
 * A restore brings the record back under its id with its notes, custom values and links
 * (trash-repository.ts) in one transaction, and queues `<kind>-restored` with the record as it is
 * back, then the `-updated` event of each record on the other side of a link that came back whose
 * shape shows it, as a link call would. A deal or ticket whose pipeline or stage was deleted while
 * it was in the trash comes back in the first stage of the default pipeline. The values it comes
 * back with are kept in its property history with the source `restore`.
 */
import { Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import { authorize } from "./authenticate.ts"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, NotFound, type ValidationFailed } from "../errors.ts"
import { Outbox } from "../events/outbox.ts"
import type { ListQueryInput } from "../records/list-query-input.ts"
import type { ObjectKind } from "../records/object-kind.ts"
import { type Page, parsePageParams } from "../records/pagination.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import { isPipelineKind, pipelinesOf } from "../records/pipeline.ts"
import { recordHistory } from "../records/property-history.ts"
import { PropertyHistoryRepository } from "../records/property-history-repository.ts"
import { PipelineRepository } from "../records/pipeline-repository.ts"
import { rehomePatch } from "../records/pipeline-rule.ts"
import { RecordRepository } from "../records/record-repository.ts"
import type { RecordJson } from "../records/record-shape.ts"
import { trashedRecordJson, type TrashedRecordJson } from "../records/trashed-record.ts"
import { TrashRepository } from "../records/trash-repository.ts"
import { RetentionPolicy } from "../retention/retention-policy.ts"
import { Transactor } from "../transactor.ts"
import { appendOtherSidesUpdated } from "./link-derivation.ts"
import { customOf, findRecord, isRecordId, shapeOf } from "./record-lookup.ts"

/**
 * `GET /api/{kind}/trash`: a page of the kind's deleted records, newest deletion first, each with
 * when and by whom it was deleted and when it is purged. Needs `<kind>-index`. Fails
 * {@link Forbidden} without it, {@link ValidationFailed} on `page` or `per_page`.
 */
export const listTrash: (
  principal: Principal,
  kind: ObjectKind,
  query: ListQueryInput
) => Effect.Effect<Page<TrashedRecordJson>, Forbidden | ValidationFailed, TrashRepository> = Effect.fn("listTrash")(
  function*(principal: Principal, kind: ObjectKind, query: ListQueryInput) {
    yield* authorize(principal, `${kind}-index`)
    const params = yield* parsePageParams(query)
    const retention = (yield* RetentionPolicy).trash
    const page = yield* TrashRepository.use((trash) => trash.list(principal.accountId, kind, params.page, params.perPage))
    return { items: page.rows.map((entry) => trashedRecordJson(entry, retention)), total: page.total, ...params }
  }
)

/**
 * `POST /api/{kind}/{_id}/restore`: brings the record back from the trash with its notes and
 * links, and queues `<kind>-restored`. Needs `<kind>-delete` (whoever may send a record to the
 * trash may bring it back). Answers the record as it is back. Fails {@link Forbidden} without the
 * permission, {@link NotFound} when the kind's trash holds no such record of the account.
 */
export const restoreRecord: (
  principal: Principal,
  kind: ObjectKind,
  id: string
) => Effect.Effect<
  RecordJson,
  Forbidden | NotFound,
  | Outbox
  | PipelineRepository
  | PropertyHistoryRepository
  | PropertyRepository
  | RecordRepository
  | SecureRandom.SecureRandom
  | Transactor
  | TrashRepository
> = Effect.fn("restoreRecord")(function*(principal: Principal, kind: ObjectKind, id: string) {
  yield* authorize(principal, `${kind}-delete`)
  if (!isRecordId(id)) return yield* new NotFound()
  const accountId = principal.accountId
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const links = yield* TrashRepository.use((trash) => trash.restore({ accountId, kind, id }))
    if (Option.isNone(links)) return yield* new NotFound()
    const custom = yield* customOf(accountId, kind)
    let found = yield* Effect.orDie(findRecord(accountId, kind, id, custom))
    if (isPipelineKind(kind)) {
      const pipelines = pipelinesOf(kind, yield* PipelineRepository.use((repo) => repo.list(accountId, kind)))
      const patch = rehomePatch(kind, pipelines, found.record.values)
      if (patch !== undefined) {
        found = yield* RecordRepository.use((repo) => repo.update({ accountId, kind, id, custom, patch })).pipe(Effect.map(Option.getOrThrow))
      }
    }
    yield* recordHistory({ accountId, kind, recordId: id, before: {}, after: found.record.values, userId: principal.userId, source: "restore" })
    const json = shapeOf(kind, found, custom)
    yield* Outbox.use((outbox) => outbox.append([{ accountId, name: `${kind}-restored`, payload: json }]))
    yield* appendOtherSidesUpdated(accountId, kind, id, links.value)
    return json
  }))
})

/**
 * `DELETE /api/{kind}/trash/{_id}`: deletes a record in the trash for good, with its property
 * history. Needs `<kind>-delete`.
 * Fails {@link Forbidden} without it, {@link NotFound} when the trash holds no such record.
 */
export const purgeTrashedRecord: (
  principal: Principal,
  kind: ObjectKind,
  id: string
) => Effect.Effect<void, Forbidden | NotFound, PropertyHistoryRepository | Transactor | TrashRepository> = Effect.fn(
  "purgeTrashedRecord"
)(
  function*(principal: Principal, kind: ObjectKind, id: string) {
    yield* authorize(principal, `${kind}-delete`)
    const accountId = principal.accountId
    const transactor = yield* Transactor
    yield* transactor.transaction(Effect.gen(function*() {
      const purged = isRecordId(id) && (yield* TrashRepository.use((trash) => trash.purge({ accountId, kind, id })))
      if (!purged) return yield* new NotFound()
      yield* PropertyHistoryRepository.use((history) => history.purge(accountId, kind, id))
    }))
  }
)
