/** The MediaStore contract in memory and in a directory, and the directory's own guarantees. */
import { describe, expect, it } from "@effect/vitest"
import { MediaStore } from "@wasl/core/Messaging"
import { Effect, Option } from "effect"
import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MediaStoreFile } from "../../src/Media.ts"
import { MediaStoreMemory } from "../../src/memory/index.ts"
import { mediaStoreContract } from "../../src/testing/index.ts"

const dir = () => mkdtempSync(join(tmpdir(), "wasl-media-test-"))

mediaStoreContract("MediaStore in memory", MediaStoreMemory)
mediaStoreContract("MediaStore in a directory", MediaStoreFile(join(dir(), "media")))

describe("MediaStoreFile", () => {
  it.effect("keeps one file per key under the account's directory, and no temporary file after a put", () => {
    const root = dir()
    return Effect.gen(function*() {
      const store = yield* MediaStore
      yield* store.put(7, "abc-0", new Uint8Array([65, 66]), "image/png")
      expect(readdirSync(join(root, "7"))).toEqual(["abc-0"])
      expect(readFileSync(join(root, "7", "abc-0"), "utf8")).toBe("image/png\nAB")
      expect(yield* store.get(8, "abc-0")).toEqual(Option.none())
    }).pipe(Effect.provide(MediaStoreFile(root)))
  })
})
