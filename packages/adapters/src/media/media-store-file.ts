/**
 * The media store in a directory (`WASL_MEDIA_DIR`, by default `<WASL_DATA_DIR>/media`): one
 * sub-directory per account, one file per key holding the media type on its first line and the
 * bytes after it. A file is written beside its place and renamed into it, so a reader sees the
 * old file or the new one, never part of one. Keys are checked (`isMediaKey`: no `/`, no `.`),
 * so a key can never reach outside its account's directory.
 */
import { isMediaKey, MediaStore } from "@wasl/core/Messaging"
import { Effect, Layer, Option } from "effect"
import { randomBytes } from "node:crypto"
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"

const NEWLINE = 0x0a

const missing = (error: unknown) => (error as NodeJS.ErrnoException)?.code === "ENOENT"

/** `MediaStore` in the directory `dir` (created when needed). */
export const MediaStoreFile = (dir: string): Layer.Layer<MediaStore> =>
  Layer.succeed(
    MediaStore,
    MediaStore.of({
      put: (accountId, key, bytes, mimeType) =>
        isMediaKey(key) && Number.isSafeInteger(accountId) && !mimeType.includes("\n")
          ? Effect.promise(async () => {
            const accountDir = join(dir, String(accountId))
            await mkdir(accountDir, { recursive: true })
            const temp = join(accountDir, `.${key}.${randomBytes(6).toString("hex")}.tmp`)
            try {
              await writeFile(temp, Buffer.concat([Buffer.from(`${mimeType}\n`, "utf8"), bytes]))
              await rename(temp, join(accountDir, key))
            } catch (error) {
              await rm(temp, { force: true })
              throw error
            }
          })
          : Effect.die(new Error("not a media key")),
      get: (accountId, key) =>
        !isMediaKey(key) || !Number.isSafeInteger(accountId)
          ? Effect.succeed(Option.none())
          : Effect.promise(async () => {
            try {
              const file = await readFile(join(dir, String(accountId), key))
              const end = file.indexOf(NEWLINE)
              if (end === -1) return Option.none()
              return Option.some({
                mimeType: file.subarray(0, end).toString("utf8"),
                bytes: new Uint8Array(file.buffer, file.byteOffset + end + 1, file.length - end - 1)
              })
            } catch (error) {
              if (missing(error)) return Option.none()
              throw error
            }
          })
    })
  )
