/**
 * The exact `message` texts of successful writes. They differ by resource, as in the Laravel API
 * Wasl reproduces: records, properties and notes say "Successfully" (capital S, no full stop),
 * webhooks "successfully." (with a full stop on create and delete only).
 */

/** `message` of a creation: a record, property, property group, note, platform or broadcast. */
export const CREATED = "Entity was created Successfully"
/** `message` of an update: a record, property, property group, note, notification preference, the caller's profile, or the links of a record. */
export const MODIFIED = "Entity was modified Successfully"
/** `message` of a deletion: a record, property, property group, note or API token. */
export const DELETED = "Entity was deleted Successfully"
/** `message` of a record brought back from the trash. */
export const RESTORED = "Entity was restored Successfully"

/** `message` of a created webhook, or of deliveries queued again (redelivery, recovery). */
export const WEBHOOK_CREATED = "Entity was created successfully."
/** `message` of an updated or (de)activated webhook. */
export const WEBHOOK_MODIFIED = "Entity was modified successfully"
/** `message` of a deleted webhook. */
export const WEBHOOK_DELETED = "Entity was deleted successfully."
