/**
 * CSV imports, the caller's side: `POST /api/{kind}/imports` (upload), `GET .../imports/{_id}`
 * (status) and `GET .../imports/{_id}/errors` (the refused rows as CSV). The worker writes the
 * records (import-processing.ts).
 *
 * - Upload: the multipart form's `file` (a CSV whose header row names internal_names of the kind;
 *   its name, kept with the import, storable text) and optional `match_on` (a property of the
 *   kind, also a column: a row whose value of it is some record's updates that record instead of
 *   creating one). The file is read as it arrives and its rows are staged in one transaction with
 *   the import (`queued`): a file refused for any reason (import-limits.ts) stores nothing.
 * - Permissions: `<kind>-create`, and `<kind>-update` too with `match_on`; reading an import's
 *   status or errors needs `<kind>-create`. Another account's import is 404.
 */
import { DateTime, Effect, Option, Stream } from "effect"
import { Csv } from "effect/encoding"
import type { SecureRandom } from "effect/crypto"
import type { ObjectKind } from "../records/object-kind.ts"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, invalid, NotFound, type ValidationFailed } from "../errors.ts"
import { checkHeader, readCsvUpload } from "../imports/csv-upload.ts"
import { FAILURES_SHOWN, type FailedRow, importView, type ImportView, type RowErrors } from "../imports/import-job.ts"
import { badFile, FileMessage } from "../imports/import-limits.ts"
import { ImportRepository } from "../imports/import-repository.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import { isStorableText } from "../validation/storable-text.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { Transactor } from "../transactor.ts"
import { guardFormula } from "../wire/formula-guard.ts"
import { newRecordId } from "../wire/record-id.ts"
import { authorize } from "./authenticate.ts"
import { customOf, isMatchProperty } from "./record-lookup.ts"

/** One part of the upload's multipart form: a text field or a file, whose bytes stream. */
export type UploadPart<E> =
  | { readonly _tag: "Field"; readonly key: string; readonly value: string }
  | { readonly _tag: "File"; readonly key: string; readonly name: string; readonly content: Stream.Stream<Uint8Array, E> }

/** The services the import use-cases need. */
export type ImportServices = ImportRepository | PropertyRepository | SecureRandom.SecureRandom | Transactor

/** The form field of the file. */
const FILE_FIELD = "file"
/** The form field of the property rows match on. */
const MATCH_ON_FIELD = "match_on"

/**
 * `POST /api/{kind}/imports`: reads the form's parts in order, stages the file's rows and queues
 * the import for the worker. Fails {@link Forbidden} without the permissions, {@link ValidationFailed}
 * on `file` for a missing or unreadable file, on `match_on` for a name that is not a property of
 * the kind among the file's columns. Answers the import, `queued`.
 */
export const startImport: <E>(
  principal: Principal,
  kind: ObjectKind,
  parts: Stream.Stream<UploadPart<E>, E>
) => Effect.Effect<ImportView, Forbidden | ValidationFailed, ImportServices> = Effect.fn("startImport")(
  function*<E>(principal: Principal, kind: ObjectKind, parts: Stream.Stream<UploadPart<E>, E>) {
    yield* authorize(principal, `${kind}-create`)
    const { accountId } = principal
    const uploadFailed = () => badFile(FileMessage.failedUpload)
    const repo = yield* ImportRepository
    const id = yield* newRecordId
    const now = yield* DateTime.now
    return yield* (yield* Transactor).transaction(Effect.gen(function*() {
      const custom = yield* customOf(accountId, kind)
      let matchOn: string | undefined
      let file: { readonly columns: ReadonlyArray<string>; readonly rows: number } | undefined
      yield* Stream.runForEach(Stream.mapError(parts, uploadFailed), (part) =>
        Effect.gen(function*() {
          if (part._tag === "Field") {
            if (part.key === MATCH_ON_FIELD) matchOn = part.value.trim()
            return
          }
          if (part.key !== FILE_FIELD || file !== undefined) return yield* Stream.runDrain(Stream.mapError(part.content, uploadFailed))
          // The name is kept with the import: it must be text Wasl can store, as the rows must.
          if (!isStorableText(part.name)) return yield* badFile(FileMessage.unstorableName)
          file = yield* readCsvUpload(part.content, uploadFailed, {
            header: (columns) =>
              Effect.andThen(
                checkHeader(kind, custom, columns),
                repo.create({ id, accountId, userId: principal.userId, kind, fileName: part.name, columns, now })
              ),
            rows: (rows) => repo.appendRows(accountId, id, rows)
          })
        }))
      if (file === undefined) return yield* badFile(FileMessage.required)
      if (matchOn !== undefined && matchOn !== "") {
        yield* authorize(principal, `${kind}-update`)
        if (!isMatchProperty(kind, custom, matchOn) || !file.columns.includes(matchOn)) {
          return yield* invalid(MATCH_ON_FIELD, LaravelMessage.selectedInvalid(MATCH_ON_FIELD))
        }
      }
      yield* repo.setStaged(accountId, id, file.rows, matchOn === "" ? null : matchOn ?? null)
      return importView(Option.getOrThrow(yield* repo.find(accountId, id)), [])
    }))
  }
)

/** The account's import, or {@link NotFound}, once the caller may read it. */
const readableImport = (principal: Principal, kind: ObjectKind, id: string) =>
  Effect.gen(function*() {
    yield* authorize(principal, `${kind}-create`)
    const job = yield* ImportRepository.use((repo) => repo.find(principal.accountId, id))
    if (Option.isNone(job) || job.value.kind !== kind) return yield* new NotFound()
    return job.value
  })

/**
 * `GET /api/{kind}/imports/{_id}`: the import's status, counts and its first
 * {@link FAILURES_SHOWN} refused rows with their messages. {@link NotFound} for an import the
 * account does not have (or of another kind).
 */
export const getImport: (
  principal: Principal,
  kind: ObjectKind,
  id: string
) => Effect.Effect<ImportView, Forbidden | NotFound, ImportRepository> = Effect.fn("getImport")(
  function*(principal: Principal, kind: ObjectKind, id: string) {
    const job = yield* readableImport(principal, kind, id)
    const failures = yield* ImportRepository.use((repo) => repo.failedRows(principal.accountId, id, 0, FAILURES_SHOWN))
    return importView(job, failures)
  }
)

/** Refused rows read from the store at once while the errors CSV streams. */
const ERRORS_PAGE = 500

/** The text of a row's `error` cell: its messages, one after the other. */
export const errorText = (errors: RowErrors): string => Object.values(errors).flat().join(" ")

/**
 * `GET /api/{kind}/imports/{_id}/errors`: the refused rows as CSV, as they are read from the
 * store: the file's columns and an `error` column with the row's messages, in line order (those
 * refused so far while the import runs). Every cell of a row gets the formula guard of the CSV
 * Wasl writes (formula-guard.ts): a refused cell is the uploader's text, opened in a spreadsheet;
 * the header's are property names, which cannot start a formula. {@link NotFound} as for the status.
 */
export const importErrorsCsv: (
  principal: Principal,
  kind: ObjectKind,
  id: string
) => Effect.Effect<Stream.Stream<string>, Forbidden | NotFound, ImportRepository> = Effect.fn("importErrorsCsv")(
  function*(principal: Principal, kind: ObjectKind, id: string) {
    const job = yield* readableImport(principal, kind, id)
    const repo = yield* ImportRepository
    const page = (afterLine: number) =>
      Effect.map(repo.failedRows(principal.accountId, id, afterLine, ERRORS_PAGE), (rows: ReadonlyArray<FailedRow>) =>
        [
          rows.map((row): Csv.Row => [...row.cells, errorText(row.errors)].map(guardFormula)),
          rows.length < ERRORS_PAGE ? Option.none() : Option.some(rows[rows.length - 1]!.line)
        ] as const)
    return Stream.concat(Stream.succeed<Csv.Row>([...job.columns, "error"]), Stream.paginate(0, page)).pipe(
      Stream.pipeThroughChannel(Csv.encodeString())
    )
  }
)
