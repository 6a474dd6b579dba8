/**
 * An export's file: UTF-8 CSV (RFC 4180, CRLF records, written by `effect/encoding`'s Csv) after
 * a byte order mark, so that spreadsheets read it as UTF-8 rather than the system's code page.
 */
import { Effect, Stream } from "effect"
import { Csv } from "effect/encoding"

/** The UTF-8 byte order mark. */
export const UTF8_BOM: Uint8Array = new Uint8Array([0xef, 0xbb, 0xbf])

/** The file's bytes: the mark, the header record, then a record per row, encoded as the stream is pulled. */
export const csvFile = <E, R>(
  header: ReadonlyArray<string>,
  rows: Stream.Stream<ReadonlyArray<string>, E, R>
): Stream.Stream<Uint8Array, E, R> =>
  Stream.concat(Stream.make(header), rows).pipe(
    Stream.pipeThroughChannel(Csv.encode()),
    Stream.prepend([UTF8_BOM])
  )

/** How a file was stored. */
export interface PiecesWritten {
  /** How many pieces. */
  readonly pieces: number
  /** Its bytes in all. */
  readonly bytes: number
}

/**
 * Regroups `bytes` into pieces of at least `size` bytes (the last one may be smaller), each handed
 * to `write` with its place from 0 as soon as it is full, so a file is stored in a few large
 * chunks whatever the pieces the encoder makes, and no more than a piece is held at once.
 */
export const writeInPieces = <E, R, E2, R2>(
  bytes: Stream.Stream<Uint8Array, E, R>,
  size: number,
  write: (piece: Uint8Array, seq: number) => Effect.Effect<void, E2, R2>
): Effect.Effect<PiecesWritten, E | E2, R | R2> =>
  Effect.suspend(() => {
    let buffered: Array<Uint8Array> = []
    let bufferedSize = 0
    let seq = 0
    let total = 0
    const flush = Effect.suspend(() => {
      const piece = new Uint8Array(bufferedSize)
      let at = 0
      for (const part of buffered) {
        piece.set(part, at)
        at += part.length
      }
      buffered = []
      bufferedSize = 0
      return write(piece, seq++)
    })
    return Stream.runForEach(bytes, (part) => {
      buffered.push(part)
      bufferedSize += part.length
      total += part.length
      return bufferedSize >= size ? flush : Effect.void
    }).pipe(
      Effect.andThen(Effect.suspend(() => bufferedSize > 0 ? flush : Effect.void)),
      Effect.map((): PiecesWritten => ({ pieces: seq, bytes: total }))
    )
  })
