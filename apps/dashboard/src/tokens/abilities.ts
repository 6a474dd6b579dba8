/** Every ability a token can carry: the permissions of each object kind and of the rest. */
import type { Schemas } from "../api/client"
import { RECORD_ACTIONS, RECORD_OBJECTS } from "../session/permissions"

export type Ability = Schemas["ApiToken"]["abilities"][number]

export const ABILITIES: ReadonlyArray<Ability> = [
  ...RECORD_OBJECTS.flatMap((object) => RECORD_ACTIONS.map((action) => `${object}-${action}` as Ability)),
  "webhook-index", "webhook-create", "webhook-update", "webhook-delete",
  "property-manage", "broadcast-index", "broadcast-manage", "broadcast-send", "broadcast-send-otp", "token-manage"
]
