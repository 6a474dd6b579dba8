/**
 * The in-memory adapters keep no records yet, so no record holds a value for any
 * property: every type or option change is allowed. Reads the records' values
 * once the in-memory records store exists.
 */
import { Effect, Layer } from "effect"
import { PropertyValueReader } from "@wasl/core"

export const PropertyValueReaderMemory = Layer.succeed(
  PropertyValueReader,
  PropertyValueReader.of({ valuesOf: () => Effect.succeed([]) })
)
