/**
 * Reading an uploaded CSV as it arrives: bytes → strict UTF-8 text → Effect's CSV decoder
 * (`effect/encoding` Csv, RFC 4180) → the header and the rows, in batches. Nothing is held but a
 * batch, so memory does not grow with the file. Every way a file can be unreadable (too large, not
 * UTF-8 or holding a NUL, not CSV, rows wider or narrower than the header, too many rows or columns) is a 422 on
 * `file`, failing the caller's transaction so that nothing of it is stored.
 */
import { Effect, Stream } from "effect"
import { Csv } from "effect/encoding"
import type { ObjectKind } from "../records/object-kind.ts"
import type { ValidationFailed } from "../errors.ts"
import { definitionsOf } from "../records/builtin-properties.ts"
import type { PropertyDefinition } from "../records/property-definition.ts"
import type { ImportRow } from "./import-job.ts"
import {
  badFile,
  FileMessage,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_ROW_CHARS,
  MAX_IMPORT_ROWS
} from "./import-limits.ts"

/** Rows handed to the sink at once. */
export const STAGE_BATCH = 1000

/** Where the rows of a file go as they are read. */
export interface UploadSink<R> {
  /** The header row, checked first (its failure stops the reading). */
  readonly header: (columns: ReadonlyArray<string>) => Effect.Effect<void, ValidationFailed, R>
  /** A batch of data rows, in order. */
  readonly rows: (rows: ReadonlyArray<ImportRow>) => Effect.Effect<void, never, R>
}

/** The limits a file is read under (the defaults are the API's). */
export interface UploadLimits {
  /** The most bytes. Default {@link MAX_IMPORT_BYTES}. */
  readonly bytes?: number | undefined
  /** The most data rows. Default {@link MAX_IMPORT_ROWS}. */
  readonly rows?: number | undefined
  /** The most columns. Default {@link MAX_IMPORT_COLUMNS}. */
  readonly columns?: number | undefined
}

/**
 * The file's bytes as text, refusing more than `maxBytes` bytes, any byte sequence that is not
 * UTF-8 (the CSV decoder's own UTF-8 step would replace it silently) and U+0000, which no text
 * Wasl stores may hold (storable-text.ts): a cell with it would fail the staging at the database.
 * Strict UTF-8 cannot decode to a lone surrogate, so NUL is the one character to look for.
 */
const strictUtf8 = <E>(bytes: Stream.Stream<Uint8Array, E>, maxBytes: number): Stream.Stream<string, E | ValidationFailed> =>
  Stream.suspend(() => {
    const decoder = new TextDecoder("utf-8", { fatal: true })
    let size = 0
    const decode = (chunk?: Uint8Array) =>
      Effect.try({
        try: () => chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true }),
        catch: () => badFile(FileMessage.notUtf8)
      }).pipe(Effect.filterOrFail((text) => !text.includes("\u0000"), () => badFile(FileMessage.hasNul)))
    return bytes.pipe(
      Stream.mapEffect((chunk) =>
        (size += chunk.byteLength) > maxBytes ? Effect.fail(badFile(FileMessage.tooLarge(maxBytes))) : decode(chunk)
      ),
      Stream.concat(Stream.fromEffect(decode()))
    )
  })

/**
 * Reads the file: checks the header with `sink.header`, then hands its data rows to `sink.rows`
 * in batches of {@link STAGE_BATCH}. Answers the header and the number of data rows. Fails with
 * a 422 on `file` for an unreadable file or one over `limits`; `uploadFailed` maps a failure of
 * the upload itself.
 */
export const readCsvUpload = <E, R>(
  bytes: Stream.Stream<Uint8Array, E>,
  uploadFailed: (error: E) => ValidationFailed,
  sink: UploadSink<R>,
  limits: UploadLimits = {}
): Effect.Effect<{ readonly columns: ReadonlyArray<string>; readonly rows: number }, ValidationFailed, R> =>
  Effect.gen(function*() {
    const maxRows = limits.rows ?? MAX_IMPORT_ROWS
    const maxColumns = limits.columns ?? MAX_IMPORT_COLUMNS
    let columns: ReadonlyArray<string> | undefined
    let line = 0
    let batch: Array<ImportRow> = []
    const flush = Effect.suspend(() => {
      const full = batch
      batch = []
      return full.length === 0 ? Effect.void : sink.rows(full)
    })
    const take = (records: ReadonlyArray<Csv.Row>) =>
      Effect.gen(function*() {
        for (const cells of records) {
          line++
          if (columns === undefined) {
            columns = cells.map((cell) => cell.trim())
            if (columns.length > maxColumns) return yield* badFile(FileMessage.tooManyColumns(maxColumns))
            yield* sink.header(columns)
            continue
          }
          if (cells.length !== columns.length) return yield* badFile(FileMessage.rowWidth(line, cells.length, columns.length))
          if (line - 1 > maxRows) return yield* badFile(FileMessage.tooManyRows(maxRows))
          batch.push({ line, cells })
          if (batch.length >= STAGE_BATCH) yield* flush
        }
      })
    const records = strictUtf8(Stream.mapError(bytes, uploadFailed), limits.bytes ?? MAX_IMPORT_BYTES).pipe(
      Stream.pipeThroughChannel(Csv.decodeString({ ignoreEmptyLines: true, maxRecordSize: MAX_IMPORT_ROW_CHARS })),
      Stream.catchTag("CsvError", (error) => Stream.fail(badFile(FileMessage.notCsv(error.message, error.line))))
    )
    yield* Stream.runForEachArray(records, take)
    yield* flush
    if (columns === undefined) return yield* badFile(FileMessage.noHeader)
    return { columns, rows: Math.max(0, line - 1) }
  })

/**
 * Checks a header row against the kind: every column names a property of the kind (built-in or
 * the account's custom one), once. The first problem is the 422 on `file`.
 */
export const checkHeader = (
  kind: ObjectKind,
  custom: ReadonlyArray<PropertyDefinition>,
  columns: ReadonlyArray<string>
): Effect.Effect<void, ValidationFailed> => {
  const known = new Set(definitionsOf(kind, custom).map((p) => p.internal_name))
  const seen = new Set<string>()
  for (const [i, name] of columns.entries()) {
    if (name === "") return Effect.fail(badFile(FileMessage.unnamedColumn(i + 1)))
    if (!known.has(name)) return Effect.fail(badFile(FileMessage.unknownColumn(name, kind)))
    if (seen.has(name)) return Effect.fail(badFile(FileMessage.duplicateColumn(name)))
    seen.add(name)
  }
  return Effect.void
}
