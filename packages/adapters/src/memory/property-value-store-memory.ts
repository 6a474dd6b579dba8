/**
 * The in-memory adapters keep no records, so no record holds a value for any property: every
 * type or option change is allowed, and there is nothing to rewrite or remove.
 */
import { Effect, Layer } from "effect"
import { PropertyValueStore } from "@wasl/core"

export const PropertyValueStoreMemory = Layer.succeed(
  PropertyValueStore,
  PropertyValueStore.of({ valuesOf: () => Effect.succeed([]), convert: () => Effect.void, drop: () => Effect.void })
)
