/**
 * A system under test made of a pure transition and a store: load what is stored, apply the
 * transition, save the result. The store is where your own persistence plugs in; `memoryStore`
 * keeps the snapshot in a variable.
 */
import { type DateTime, Effect } from "effect"
import type { SystemUnderTest, Transition } from "./reference-model.ts"

/**
 * Where a system under test keeps its one snapshot (a webhook, a delivery, a recipient's
 * verifications). `load` answers what the last `save` stored, exactly: the model compares it.
 * Give each run a fresh store (a new row, a new key).
 *
 * @example
 * ```ts
 * // A webhook kept by your own repository (any Effects without requirements), a new row per run.
 * const myStore = (): SnapshotStore<WebhookSnapshot | null> => {
 *   const id = myRepository.newId()
 *   return { load: myRepository.find(id), save: (snapshot) => myRepository.put(id, snapshot) }
 * }
 * fc.assert(fc.property(webhookCommands(), (cmds) =>
 *   fc.modelRun(() => webhookModelSetup({ system: webhookSystem(myStore()) }), cmds)))
 * ```
 */
export interface SnapshotStore<Snapshot> {
  /** What is stored now. */
  readonly load: Effect.Effect<Snapshot, unknown>
  /** Stores `snapshot` in place of what was stored. */
  readonly save: (snapshot: Snapshot) => Effect.Effect<void, unknown>
}

/** A store that keeps the snapshot in a variable, starting with `initial`. */
export const memoryStore = <Snapshot>(initial: Snapshot): SnapshotStore<Snapshot> => {
  let current = initial
  return {
    load: Effect.sync(() => current),
    save: (snapshot) =>
      Effect.sync(() => {
        current = snapshot
      })
  }
}

/** The system that applies `transition` to what `store` holds and saves the result. */
export const storedSystem = <Snapshot, Trigger, Answer>(
  store: SnapshotStore<Snapshot>,
  transition: (snapshot: Snapshot, trigger: Trigger, now: DateTime.Utc) => Transition<Snapshot, Answer>
): SystemUnderTest<Trigger, Answer, Snapshot> => ({
  apply: (trigger, now) =>
    Effect.flatMap(store.load, (snapshot) => {
      const next = transition(snapshot, trigger, now)
      return Effect.as(store.save(next.state), next.answer)
    }),
  observe: store.load
})
