/**
 * Broadcasts with their template. Every method takes the account and never sees another account's
 * rows, but the two lookups Meta's review needs across accounts (its webhook names only the
 * WhatsApp Business Account and the template).
 */
import { Context, type Effect, type Option } from "effect"
import type { Broadcast, BroadcastInput, BroadcastReview } from "./broadcast.ts"
import type { Platform } from "./platform.ts"
import type { ReviewPatch } from "./template-review.ts"

/** What the BroadcastRepository port offers (implement this to write an adapter). */
export interface BroadcastRepositoryShape {
  /**
   * Stores the broadcast and its template together, with where its review stands (status,
   * reason, the template's `external_id`); the platform must be the account's.
   */
  readonly insert: (
    accountId: number,
    input: BroadcastInput,
    platform: Platform,
    review: BroadcastReview
  ) => Effect.Effect<Broadcast>
  /** The account's broadcasts, oldest first, with template and platform. */
  readonly list: (accountId: number) => Effect.Effect<ReadonlyArray<Broadcast>>
  /** The account's broadcast with that id (with template and platform), or none. */
  readonly findById: (accountId: number, id: number) => Effect.Effect<Option.Option<Broadcast>>
  /**
   * Applies a review to the account's broadcast: the fields `patch` gives that differ from what
   * is stored (status and reason on the broadcast, the category on its template), `updated_at`
   * moved on what changed. Answers the broadcast as it is now when something changed, none when
   * nothing did or there is no such broadcast: of two concurrent equal reviews, one changes it.
   */
  readonly updateReview: (accountId: number, id: number, patch: ReviewPatch) => Effect.Effect<Option.Option<Broadcast>>
  /**
   * The broadcasts, of every account, whose template has the `external_id` `externalId` and whose
   * sending number's `waba_id` is `wabaId`; oldest first. Not scoped to an account: it is how
   * Meta's review webhook, which names the WhatsApp Business Account and the template, finds them.
   */
  readonly findByExternalTemplate: (wabaId: string, externalId: string) => Effect.Effect<ReadonlyArray<Broadcast>>
  /** The accounts having a broadcast whose template was submitted (has an `external_id`), ascending. */
  readonly accountsWithSubmittedTemplates: Effect.Effect<ReadonlyArray<number>>
}

const BroadcastRepositoryBase: Context.ServiceClass<
  BroadcastRepository,
  "@wasl/core/BroadcastRepository",
  BroadcastRepositoryShape
> = Context.Service<BroadcastRepository, BroadcastRepositoryShape>()("@wasl/core/BroadcastRepository")

/** The account's broadcasts, each with its template and sending number. */
export class BroadcastRepository extends BroadcastRepositoryBase {}
