/** The media store in memory: same semantics as `MediaStoreFile`, for tests and all-memory deployments. */
import { isMediaKey, MediaStore, type StoredMedia } from "@wasl/core/Messaging"
import { Effect, Layer, Option } from "effect"

/** `MediaStore` in memory; each build starts empty. Files are copied in and out, as a disk would. */
export const MediaStoreMemory: Layer.Layer<MediaStore> = Layer.sync(MediaStore, () => {
  const files = new Map<string, StoredMedia>()
  const at = (accountId: number, key: string) => `${accountId}:${key}`
  return MediaStore.of({
    put: (accountId, key, bytes, mimeType) =>
      isMediaKey(key)
        ? Effect.sync(() => void files.set(at(accountId, key), { bytes: bytes.slice(), mimeType }))
        : Effect.die(new Error("not a media key")),
    get: (accountId, key) =>
      Effect.sync(() => {
        const file = isMediaKey(key) ? files.get(at(accountId, key)) : undefined
        return file === undefined ? Option.none() : Option.some({ bytes: file.bytes.slice(), mimeType: file.mimeType })
      })
  })
})
