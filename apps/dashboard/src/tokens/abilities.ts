/** Every ability a token can carry: the permissions of each object kind and of the rest. */
import type { Schemas } from "../api/client"

export type Ability = Schemas["ApiToken"]["abilities"][number]

const OBJECTS = ["contact", "company", "deal", "ticket", "invoice", "product"] as const
const ACTIONS = ["index", "show", "create", "update", "delete"] as const

export const ABILITIES: ReadonlyArray<Ability> = [
  ...OBJECTS.flatMap((object) => ACTIONS.map((action): Ability => `${object}-${action}`)),
  "webhook-index", "webhook-create", "webhook-update", "webhook-delete",
  "property-manage", "broadcast-index", "broadcast-manage", "broadcast-send", "broadcast-send-otp", "token-manage"
]
