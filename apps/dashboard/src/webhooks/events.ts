/** Every event a webhook can subscribe to: each object with each of the twelve suffixes. */
import type { Schemas } from "../api/client"

type EventName = Schemas["EventName"]
type SuffixOf<E> = E extends `contact-${infer S}` ? S : never
type Suffix = SuffixOf<EventName>

const OBJECTS = ["contact", "company", "deal", "ticket", "invoice", "product"] as const
const SUFFIXES: ReadonlyArray<Suffix> = [
  "created", "updated", "deleted",
  "property-created", "property-updated", "property-deleted",
  "property-group-created", "property-group-updated", "property-group-deleted",
  "note-created", "note-updated", "note-deleted"
]

export const EVENT_NAMES: ReadonlyArray<EventName> = OBJECTS.flatMap((object) =>
  SUFFIXES.map((suffix) => `${object}-${suffix}` as EventName)
)
