/**
 * The two sides a model-based property compares: a reference model (the rules as a pure function
 * over a simple state) and a system under test (the real transitions, kept wherever you keep them).
 */
import type { DateTime, Effect } from "effect"

/** What one trigger does: the next state and the answer given to the caller. */
export interface Transition<State, Answer> {
  /** The state after the trigger. */
  readonly state: State
  /** What the caller is answered. */
  readonly answer: Answer
}

/**
 * A state machine's rules written as plainly as possible, the oracle the real system is compared
 * with. Time is plain epoch milliseconds here, so the rules read like the tables they come from.
 */
export interface ReferenceModel<State, Trigger, Answer, Observed> {
  /** Whether `trigger` can happen in `state`; fast-check skips the step otherwise. */
  readonly canApply: (state: State, trigger: Trigger) => boolean
  /** The rule for `trigger` at `nowMillis`: the next state and the answer the system must give. */
  readonly apply: (state: State, trigger: Trigger, nowMillis: number) => Transition<State, Answer>
  /**
   * How what the system holds differs from `state` at `nowMillis`, invariants included: one
   * sentence per difference, none when they agree.
   */
  readonly compare: (state: State, observed: Observed, nowMillis: number) => ReadonlyArray<string>
  /** The trigger as a failure report names it. */
  readonly show: (trigger: Trigger) => string
  /**
   * The instants (epoch ms) at which the rules turn for `state`: from each on, the same trigger
   * is answered differently or the state reads differently (a code's expiry, a delivery's next
   * attempt coming due). The commands' boundary steps move the clock to the next of them, or 1 ms
   * either side; a model without them gets no boundary steps.
   */
  readonly boundaries?: (state: State) => ReadonlyArray<number>
}

/**
 * The system under test: it applies a trigger at `now` and answers, and shows what it holds. Both
 * are Effects, so the state can live in your own persistence; they must need no services (provide
 * them inside). A failure of either Effect fails the run. Give each run a fresh one.
 *
 * @example
 * ```ts
 * // Your own webhook handling, checked against the kit's webhook model.
 * const mySystem = (): WebhookSystem => {
 *   const service = makeMyWebhookService()
 *   return {
 *     apply: (trigger, now) => service.handle(trigger, now), // answers "Done", "Forbidden", ...
 *     observe: service.current // the stored webhook, or null
 *   }
 * }
 * fc.assert(fc.property(webhookCommands(), (cmds) =>
 *   fc.modelRun(() => webhookModelSetup({ system: mySystem() }), cmds)))
 * ```
 */
export interface SystemUnderTest<Trigger, Answer, Observed> {
  /** Applies `trigger` at `now` and answers like the real system does. */
  readonly apply: (trigger: Trigger, now: DateTime.Utc) => Effect.Effect<Answer, unknown>
  /** What the system holds now. */
  readonly observe: Effect.Effect<Observed, unknown>
}
