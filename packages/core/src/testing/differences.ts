/**
 * The sentences a reference model's `compare` returns: a field that differs from the model, or an
 * invariant that does not hold. Internal to the kit (not exported from its entry point).
 */
import { Equal } from "effect"

/** Collects differences; `list` holds one sentence each. */
export interface Differences {
  /** Notes `name` when `actual` is not (structurally) `expected`. */
  readonly field: (name: string, actual: unknown, expected: unknown) => void
  /** Notes the invariant `rule` when it does not hold. */
  readonly rule: (rule: string, holds: boolean) => void
  readonly list: ReadonlyArray<string>
}

/** A value as a failure report writes it. */
export const showValue = (value: unknown): string => JSON.stringify(value) ?? String(value)

/** A fresh, empty collection. */
export const differences = (): Differences => {
  const list: Array<string> = []
  return {
    field: (name, actual, expected) => {
      if (!Equal.equals(actual, expected)) list.push(`${name} is ${showValue(actual)}, the model says ${showValue(expected)}`)
    },
    rule: (rule, holds) => {
      if (!holds) list.push(`broken invariant: ${rule}`)
    },
    list
  }
}
