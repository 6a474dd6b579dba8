/** The contract suite of the MediaStore port (documented on `mediaStoreContract`). */
import { describe, expect, layer } from "@effect/vitest"
import { MediaStore, mediaKey } from "@wasl/core/Messaging"
import { Effect, Exit, type Layer, Option } from "effect"

const bytes = (...values: Array<number>) => new Uint8Array(values)
let next = 1
/** An account id no other test of the suite uses. */
const freshAccount = () => 1_000_000 + next++

/**
 * The contract of the MediaStore port over every implementation (memory, a directory, or yours):
 *
 * - a file is read back as stored, bytes and media type, and a second put replaces it;
 * - files are per account: another account's key reads nothing and its put changes nothing here;
 * - a key that is not a media key (a path, `..`, empty, too long) reads nothing and cannot be
 *   written (a defect);
 * - empty files and files of every byte value are kept exactly.
 */
export const mediaStoreContract = <E>(name: string, services: Layer.Layer<MediaStore, E>): void => {
  layer(services, { timeout: 30_000 })(name, (it) => {
    describe("MediaStore", () => {
      it.effect("reads a file back as stored, and replaces it on a second put", () =>
        Effect.gen(function*() {
          const store = yield* MediaStore
          const account = freshAccount()
          const key = mediaKey("0123456789abcdef01234567", 0)
          expect(yield* store.get(account, key)).toEqual(Option.none())
          yield* store.put(account, key, bytes(1, 2, 3), "image/jpeg")
          expect(yield* store.get(account, key)).toEqual(Option.some({ bytes: bytes(1, 2, 3), mimeType: "image/jpeg" }))
          yield* store.put(account, key, bytes(9), "audio/ogg; codecs=opus")
          expect(yield* store.get(account, key)).toEqual(Option.some({ bytes: bytes(9), mimeType: "audio/ogg; codecs=opus" }))
        }))

      it.effect("keeps empty files and every byte value exactly", () =>
        Effect.gen(function*() {
          const store = yield* MediaStore
          const account = freshAccount()
          const all = new Uint8Array(256).map((_, i) => i)
          yield* store.put(account, "all", all, "application/octet-stream")
          yield* store.put(account, "empty", bytes(), "text/plain")
          expect(yield* store.get(account, "all")).toEqual(Option.some({ bytes: all, mimeType: "application/octet-stream" }))
          expect(yield* store.get(account, "empty")).toEqual(Option.some({ bytes: bytes(), mimeType: "text/plain" }))
        }))

      it.effect("keeps each account's files apart", () =>
        Effect.gen(function*() {
          const store = yield* MediaStore
          const mine = freshAccount()
          const theirs = freshAccount()
          yield* store.put(mine, "k-1", bytes(1), "image/png")
          expect(yield* store.get(theirs, "k-1")).toEqual(Option.none())
          yield* store.put(theirs, "k-1", bytes(2), "image/png")
          expect(yield* store.get(mine, "k-1")).toEqual(Option.some({ bytes: bytes(1), mimeType: "image/png" }))
        }))

      it.effect("reads nothing under a key that is not a media key, and refuses to write one", () =>
        Effect.gen(function*() {
          const store = yield* MediaStore
          const account = freshAccount()
          yield* store.put(account, "victim", bytes(7), "text/plain")
          for (const key of ["", "..", "../victim", `../${account}/victim`, "a/b", "a\\b", "a.b", "x".repeat(129), "é"]) {
            expect(yield* store.get(account, key)).toEqual(Option.none())
            const put = yield* Effect.exit(store.put(account, key, bytes(0), "text/plain"))
            expect(Exit.isFailure(put)).toBe(true)
          }
          expect(yield* store.get(account, "victim")).toEqual(Option.some({ bytes: bytes(7), mimeType: "text/plain" }))
        }))
    })
  })
}
