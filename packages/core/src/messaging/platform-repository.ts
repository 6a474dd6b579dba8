/**
 * The account's sending numbers (platforms). Every method takes the account and never sees another
 * account's rows.
 */
import { Context, type Effect, type Option } from "effect"
import type { NumberHealth, Platform, PlatformInput } from "./platform.ts"

/** What the PlatformRepository port offers (implement this to write an adapter). */
export interface PlatformRepositoryShape {
  /** Stores a sending number (`sealed_access_token` already sealed); created_at = updated_at = now. */
  readonly insert: (
    accountId: number,
    input: Omit<PlatformInput, "access_token"> & { readonly sealed_access_token: string | null }
  ) => Effect.Effect<Platform>
  /** The account's sending numbers, oldest first. */
  readonly list: (accountId: number) => Effect.Effect<ReadonlyArray<Platform>>
  /** The account's sending number with that id, or none. */
  readonly findById: (accountId: number, id: number) => Effect.Effect<Option.Option<Platform>>
  /**
   * The sending numbers of every account that the provider names `phoneNumberId`: those whose
   * `phone_id` it is and, having no `phone_id` (sandbox numbers), those whose display number's
   * digits it is; oldest first. The one lookup not scoped to an account: it is how a provider's
   * webhook, which names only the number, finds the account it belongs to.
   */
  readonly findByProviderNumber: (phoneNumberId: string) => Effect.Effect<ReadonlyArray<Platform>>
  /**
   * Changes the account's sending number: its name and its sealed access token, each when given;
   * updated_at = now. None when the account has no such number.
   */
  readonly update: (
    accountId: number,
    id: number,
    changes: { readonly name?: string; readonly sealed_access_token?: string }
  ) => Effect.Effect<Option.Option<Platform>>
  /** Stores what Meta says of the account's number (all four fields); updated_at = now. None when there is no such number. */
  readonly setHealth: (accountId: number, id: number, health: NumberHealth) => Effect.Effect<Option.Option<Platform>>
  /**
   * The quality webhook, across accounts: sets the messaging limit tier of every `whatsapp_cloud`
   * number of the WhatsApp Business Account `wabaId` whose display number's digits are
   * `displayDigits` (both must match: a WABA id alone could name another account's number), when
   * they are one account's; numbers that more than one account registered are left as they are,
   * since whose the update is cannot be told. Returns the numbers changed.
   */
  readonly setLimitTier: (wabaId: string, displayDigits: string, tier: string) => Effect.Effect<ReadonlyArray<Platform>>
  /**
   * Removes the account's sending number with its broadcasts (and their templates); the messages
   * sent and received on it stay, no longer linked to a broadcast. False when there is no such number.
   */
  readonly remove: (accountId: number, id: number) => Effect.Effect<boolean>
}

const PlatformRepositoryBase: Context.ServiceClass<
  PlatformRepository,
  "@wasl/core/PlatformRepository",
  PlatformRepositoryShape
> = Context.Service<PlatformRepository, PlatformRepositoryShape>()("@wasl/core/PlatformRepository")

/** The account's sending numbers (platforms). */
export class PlatformRepository extends PlatformRepositoryBase {}
