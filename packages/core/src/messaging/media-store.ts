/**
 * The media store: the files of received messages (images, voice notes, documents...), fetched
 * from the channel once and kept for the account's members to download. Files are keyed per
 * account; a key is 1 to 128 letters, digits, `_` or `-` (`mediaKey` makes one per attachment), so
 * no key can name a path outside its account's files. Every method takes the account and never
 * sees another account's files.
 */
import { Context, type Effect, type Option } from "effect"

/** A stored file. */
export interface StoredMedia {
  /** Its content. */
  readonly bytes: Uint8Array
  /** Its media type (`image/jpeg`, ...). */
  readonly mimeType: string
}

/** The largest file the media fetch keeps when `WASL_MEDIA_MAX_BYTES` is not set: 16 MiB. */
export const DEFAULT_MEDIA_MAX_BYTES: number = 16 * 1024 * 1024

const KEY = /^[A-Za-z0-9_-]{1,128}$/

/** Whether `key` is a media store key (1 to 128 letters, digits, `_` or `-`). */
export const isMediaKey = (key: string): boolean => KEY.test(key)

/** The key of a message's attachment: its message's `_id` and its index. */
export const mediaKey = (messageId: string, index: number): string => `${messageId}-${index}`

/** What the MediaStore port offers (implement this to write an adapter). */
export interface MediaStoreShape {
  /**
   * Stores the file under the account's `key`, replacing any file there; the file is whole or
   * absent, never half written. A key that is not a media key is a defect.
   */
  readonly put: (accountId: number, key: string, bytes: Uint8Array, mimeType: string) => Effect.Effect<void>
  /** The account's file under `key`, or none (a key that is not a media key included). */
  readonly get: (accountId: number, key: string) => Effect.Effect<Option.Option<StoredMedia>>
}

const MediaStoreBase: Context.ServiceClass<MediaStore, "@wasl/core/MediaStore", MediaStoreShape> = Context.Service<
  MediaStore,
  MediaStoreShape
>()("@wasl/core/MediaStore")

/** The files of received messages, per account: its operations are {@link MediaStoreShape}. */
export class MediaStore extends MediaStoreBase {}
