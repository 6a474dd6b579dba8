/**
 * Broadcasts with their template. Every method takes the account and never sees another account's
 * rows.
 */
import { Context, type Effect, type Option } from "effect"
import type { Broadcast, BroadcastInput, BroadcastStatus } from "./broadcast.ts"
import type { Platform } from "./platform.ts"

/** What the BroadcastRepository port offers (implement this to write an adapter). */
export interface BroadcastRepositoryShape {
  /** Stores the broadcast and its template together; the platform must be the account's. */
  readonly insert: (
    accountId: number,
    input: BroadcastInput,
    platform: Platform,
    status: BroadcastStatus
  ) => Effect.Effect<Broadcast>
  /** The account's broadcasts, oldest first, with template and platform. */
  readonly list: (accountId: number) => Effect.Effect<ReadonlyArray<Broadcast>>
  /** The account's broadcast with that id (with template and platform), or none. */
  readonly findById: (accountId: number, id: number) => Effect.Effect<Option.Option<Broadcast>>
}

const BroadcastRepositoryBase: Context.ServiceClass<
  BroadcastRepository,
  "@wasl/core/BroadcastRepository",
  BroadcastRepositoryShape
> = Context.Service<BroadcastRepository, BroadcastRepositoryShape>()("@wasl/core/BroadcastRepository")

/** The account's broadcasts, each with its template and sending number. */
export class BroadcastRepository extends BroadcastRepositoryBase {}
