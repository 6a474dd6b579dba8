/**
 * Which side of each link derives something shown from it, and the `-updated` events that follow
 * when links appear or go: a link call's, a trashed record's (its links go with it) and a
 * restored one's (they come back). A side derives from a link when its REST shape shows it: a
 * deal its `contacts`, a contact its `deal_ids` and `company_ids`, a ticket its counts and
 * `company_ids`, a company its linked ids and counts.
 */
import { Effect } from "effect"
import type { Outbox } from "../events/outbox.ts"
import type { ObjectKind } from "../records/object-kind.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import type { RecordLinkInput, RecordLinkName, RecordRepository } from "../records/record-repository.ts"
import { appendRecordsUpdated } from "./record-lookup.ts"

/** A link's two kinds, and whether each side's REST shape derives something from it. */
export interface LinkSpec {
  readonly from: ObjectKind
  readonly to: ObjectKind
  readonly fromDerives: boolean
  readonly toDerives: boolean
}

/** Every link's sides. */
export const LINK_SPECS: { readonly [L in RecordLinkName]: LinkSpec } = {
  deal_contact: { from: "deal", to: "contact", fromDerives: true, toDerives: true },
  ticket_contact: { from: "ticket", to: "contact", fromDerives: true, toDerives: false },
  ticket_deal: { from: "ticket", to: "deal", fromDerives: true, toDerives: false },
  company_contact: { from: "company", to: "contact", fromDerives: true, toDerives: true },
  company_deal: { from: "company", to: "deal", fromDerives: true, toDerives: true },
  company_ticket: { from: "company", to: "ticket", fromDerives: true, toDerives: true }
}

/**
 * Queues the `-updated` event of every record on the other side of these links of the record
 * (`kind`, `id`) whose shape derives from them, once per record, with its shape now.
 */
export const appendOtherSidesUpdated = (
  accountId: number,
  kind: ObjectKind,
  id: string,
  links: ReadonlyArray<RecordLinkInput>
): Effect.Effect<void, never, Outbox | PropertyRepository | RecordRepository> =>
  Effect.gen(function*() {
    const byKind = new Map<ObjectKind, Set<string>>()
    for (const link of links) {
      const spec = LINK_SPECS[link.link]
      const isFrom = spec.from === kind && link.from === id
      const [otherKind, otherId, derives] = isFrom ? [spec.to, link.to, spec.toDerives] : [spec.from, link.from, spec.fromDerives]
      if (!derives) continue
      const ids = byKind.get(otherKind) ?? new Set<string>()
      byKind.set(otherKind, ids.add(otherId))
    }
    for (const [otherKind, ids] of byKind) yield* appendRecordsUpdated(accountId, otherKind, [...ids])
  })
