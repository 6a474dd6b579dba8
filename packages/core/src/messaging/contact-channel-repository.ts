/**
 * The contacts' channel entries: one per contact, sending number and the contact's WhatsApp id,
 * made the first time a message travels between them and named by every message that does since
 * (`contact_channel_id`). A contact's REST shape lists its entries as `channels`; they go with
 * their contact. Every method takes the account and never sees another account's entries.
 */
import { Context, DateTime, Effect } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { ContactChannel } from "../records/record-shape.ts"
import { newRecordId } from "../wire/record-id.ts"

/** Which channel entry: the contact, the sending number's provider id and the contact's id there. */
export interface ContactChannelKey {
  /** The account of the contact. */
  readonly accountId: number
  /** The contact's record id. */
  readonly contactId: string
  /** The sending number's id at its provider (its phone_number_id; a sandbox number's digits). */
  readonly platformThirdPartyId: string
  /** The contact's id there (its WhatsApp id: digits). */
  readonly contactThirdPartyId: string
}

/** What the ContactChannelRepository port offers (implement this to write an adapter). */
export interface ContactChannelRepositoryShape {
  /**
   * The entry of that key, made now (under `id`, a fresh record id) when the contact has none;
   * an existing one is answered as it is. Made twice at once, both get the same entry.
   */
  readonly ensure: (key: ContactChannelKey, id: string, now: DateTime.Utc) => Effect.Effect<ContactChannel>
  /** The contact's entries, oldest first. */
  readonly listOfContact: (accountId: number, contactId: string) => Effect.Effect<ReadonlyArray<ContactChannel>>
}

const ContactChannelRepositoryBase: Context.ServiceClass<
  ContactChannelRepository,
  "@wasl/core/ContactChannelRepository",
  ContactChannelRepositoryShape
> = Context.Service<ContactChannelRepository, ContactChannelRepositoryShape>()("@wasl/core/ContactChannelRepository")

/** The contacts' channel entries (sending number × WhatsApp id). */
export class ContactChannelRepository extends ContactChannelRepositoryBase {}

/** The channel entry of that key, made now when the contact has none (see `ensure`). */
export const ensureContactChannel = (
  key: ContactChannelKey
): Effect.Effect<ContactChannel, never, ContactChannelRepository | SecureRandom.SecureRandom> =>
  Effect.gen(function*() {
    const id = yield* newRecordId
    const now = yield* DateTime.now
    return yield* ContactChannelRepository.use((repo) => repo.ensure(key, id, now))
  })
