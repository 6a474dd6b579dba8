/**
 * CSV exports of records, asked for over the API and written by the worker (export-run.ts).
 *
 * - `POST /api/{kind}/exports` (`requestExport`): the list query of `GET /api/{kind}` and the
 *   columns, validated as the list validates its query; the export is queued and answered at once.
 * - `GET /api/exports/{_id}` (`getExport`): where it is.
 * - `GET /api/exports/{_id}/download` (`downloadExport`): the file once written, until it expires.
 *
 * Permission: the kind's `<kind>-index`, the list's own, for each of the three: an export shows
 * what the list shows. An export of another account, or no export, is 404.
 */
import { DateTime, Effect, Option, type Stream } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { ObjectKind } from "../records/object-kind.ts"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, Gone, NotFound, type ValidationFailed } from "../errors.ts"
import { type ExportJson, exportJson, isExpired, queuedExport } from "../exports/export.ts"
import { ExportRepository } from "../exports/export-repository.ts"
import { parseExportRequest } from "../exports/export-request.ts"
import { PATH_OF_KIND } from "../records/object-kind.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import { newRecordId } from "../wire/record-id.ts"
import { authorize } from "./authenticate.ts"
import { customOf } from "./record-lookup.ts"

/**
 * `POST /api/{kind}/exports`: queues a CSV export of the account's records of the kind that the
 * list query in `body` (`search`, `order`, `direction`, `complex_filters`, as `GET /api/{kind}`
 * takes them) matches, with the columns `_id`, `properties` (internal_names of the kind; default
 * all of them, built-in then custom) and the timestamps. Needs `<kind>-index`.
 *
 * Answers the queued export. Fails {@link Forbidden} without the permission,
 * {@link ValidationFailed} with the list's messages for a bad query key and `properties.N` for a
 * column that is no property of the kind, all at once.
 */
export const requestExport: (
  principal: Principal,
  kind: ObjectKind,
  body: unknown
) => Effect.Effect<
  ExportJson,
  Forbidden | ValidationFailed,
  ExportRepository | PropertyRepository | SecureRandom.SecureRandom
> = Effect.fn("requestExport")(function*(principal: Principal, kind: ObjectKind, body: unknown) {
  yield* authorize(principal, `${kind}-index`)
  const custom = yield* customOf(principal.accountId, kind)
  const request = yield* parseExportRequest(kind, body, custom)
  const now = yield* DateTime.now
  const row = queuedExport({
    accountId: principal.accountId,
    id: yield* newRecordId,
    userId: principal.userId,
    kind,
    query: request.query,
    columns: request.columns,
    createdAt: now
  })
  yield* ExportRepository.use((repo) => repo.insert(row))
  return exportJson(row, now)
})

/** The account's export, when the principal may list its kind. */
const findExport = (principal: Principal, id: string) =>
  Effect.gen(function*() {
    const found = yield* ExportRepository.use((repo) => repo.get(principal.accountId, id))
    if (Option.isNone(found)) return yield* new NotFound()
    yield* authorize(principal, `${found.value.kind}-index`)
    return found.value
  })

/**
 * `GET /api/exports/{_id}`: the export, `expired` once its file is gone. Fails {@link NotFound} for
 * an id the account has no export of, {@link Forbidden} without `<kind>-index` of its kind.
 */
export const getExport: (
  principal: Principal,
  id: string
) => Effect.Effect<ExportJson, Forbidden | NotFound, ExportRepository> = Effect.fn("getExport")(
  function*(principal: Principal, id: string) {
    const row = yield* findExport(principal, id)
    return exportJson(row, yield* DateTime.now)
  }
)

/** An export's file, to send. */
export interface ExportDownload {
  /** The name to save it under: `<kind path>-<export id>.csv`. */
  readonly fileName: string
  /** Its size in bytes. */
  readonly byteSize: number
  /** Its bytes, read chunk by chunk as they are sent. */
  readonly body: Stream.Stream<Uint8Array>
}

/**
 * `GET /api/exports/{_id}/download`: the file of a completed export. Fails {@link NotFound} as
 * `getExport` does, and also while the export is queued or running (there is no file yet);
 * {@link Gone} with its status once the file expired (`expired`) or when the export failed
 * (`failed`, there will never be one).
 */
export const downloadExport: (
  principal: Principal,
  id: string
) => Effect.Effect<ExportDownload, Forbidden | NotFound | Gone, ExportRepository> = Effect.fn("downloadExport")(
  function*(principal: Principal, id: string) {
    const row = yield* findExport(principal, id)
    if (row.status === "failed") return yield* new Gone({ message: "The export failed: it has no file.", status: "failed" })
    if (row.status !== "completed") return yield* new NotFound()
    if (isExpired(row, yield* DateTime.now)) {
      return yield* new Gone({ message: "The export's file has expired.", status: "expired" })
    }
    const repo = yield* ExportRepository
    return {
      fileName: `${PATH_OF_KIND[row.kind]}-${row.id}.csv`,
      byteSize: row.byteSize ?? 0,
      body: repo.chunks(row.accountId, row.id)
    }
  }
)
