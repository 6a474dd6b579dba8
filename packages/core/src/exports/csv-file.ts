/**
 * An export's file: UTF-8 CSV (RFC 4180, CRLF records, written by `effect/encoding`'s Csv) after
 * a byte order mark, so that spreadsheets read it as UTF-8 rather than the system's code page.
 *
 * The file is written a batch of records at a time (`csvBatch`), the first batch after the mark
 * and the header. RFC 4180 records stand alone, so the batches' bytes one after the other are the
 * bytes of the whole file encoded at once, wherever the batches were cut.
 */
import { Effect, Stream } from "effect"
import { Csv } from "effect/encoding"

/** The UTF-8 byte order mark. */
export const UTF8_BOM: Uint8Array = new Uint8Array([0xef, 0xbb, 0xbf])

const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const all = new Uint8Array(parts.reduce((n, part) => n + part.length, 0))
  let at = 0
  for (const part of parts) {
    all.set(part, at)
    at += part.length
  }
  return all
}

/** The records `rows` (arrays of cells) as CSV bytes, each ending in CRLF; nothing for no rows. */
const csvRecords = (rows: ReadonlyArray<ReadonlyArray<string>>): Effect.Effect<Uint8Array> =>
  rows.length === 0
    ? Effect.succeed(new Uint8Array(0))
    : Stream.fromIterable(rows).pipe(Stream.pipeThroughChannel(Csv.encode()), Stream.runCollect, Effect.map(concat))

/**
 * A batch of the file: the records `rows` (arrays of cells), after the mark and the `header`
 * record when it is given (the first batch). Empty for no rows and no header.
 */
export const csvBatch = (
  rows: ReadonlyArray<ReadonlyArray<string>>,
  header: ReadonlyArray<string> | null
): Effect.Effect<Uint8Array> =>
  header === null
    ? csvRecords(rows)
    : Effect.map(csvRecords([header, ...rows]), (records) => concat([UTF8_BOM, records]))
