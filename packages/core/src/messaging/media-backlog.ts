/**
 * The media backlog: received messages with an attachment whose file is still to be fetched
 * (`pending`), across accounts, for the worker's media fetch. Reading it takes nothing: a second
 * worker may fetch the same file, which stores the same bytes again (the fetch is idempotent).
 */
import { Context, type Effect } from "effect"
import type { Message } from "./message.ts"

/** What the MediaBacklog port offers (implement this to write an adapter). */
export interface MediaBacklogShape {
  /**
   * Up to `limit` inbound messages, oldest first (`created_at`, then account and `_id`), holding
   * at least one `pending` attachment, but for those whose `_id` is in `skip` (waiting for a retry).
   */
  readonly pending: (limit: number, skip: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Message>>
}

const MediaBacklogBase: Context.ServiceClass<MediaBacklog, "@wasl/core/MediaBacklog", MediaBacklogShape> = Context
  .Service<MediaBacklog, MediaBacklogShape>()("@wasl/core/MediaBacklog")

/** Received messages whose files are still to be fetched: its operations are {@link MediaBacklogShape}. */
export class MediaBacklog extends MediaBacklogBase {}
