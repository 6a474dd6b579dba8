/**
 * The machinery the kit's three model-based properties share: the fast-check commands that apply
 * random triggers and clock steps to a reference model and to a system under test, and compare
 * them after every step, and the setup a run starts from.
 */
import { DateTime, Effect, Equal } from "effect"
import * as fc from "fast-check"
import { showValue } from "./differences.ts"
import type { ReferenceModel, SystemUnderTest } from "./reference-model.ts"
import { boundaryOffset } from "./time-arbitraries.ts"

/** The model side of one `fc.modelRun`: the model's state and the run's clock (epoch ms). */
export interface ModelRun<State> {
  /** The reference model's state, replaced after every trigger. */
  state: State
  /** The run's clock, moved by clock steps; every trigger happens at this instant. */
  nowMillis: number
  /** Whether the system's starting state was compared with the model yet (done before the first step). */
  startChecked: boolean
}

/**
 * Thrown when the system under test and the reference model disagree. `step` names the step and
 * the time it ran at, `differences` says what differs (answer, fields, broken invariants).
 */
export class ModelMismatch extends Error {
  /** The step after which they disagreed. */
  readonly step: string
  /** One sentence per difference. */
  readonly differences: ReadonlyArray<string>
  /** A mismatch found after `step`, with one sentence per difference. */
  constructor(step: string, differences: ReadonlyArray<string>) {
    super(`after ${step}: ${differences.join("; ")}`)
    this.name = "ModelMismatch"
    this.step = step
    this.differences = differences
  }
}

/** How the commands of a model-based property are drawn; each machine has its own defaults. */
export interface ModelCommandsOptions<Trigger> extends fc.CommandsContraints {
  /** The triggers to apply. */
  readonly triggers?: fc.Arbitrary<Trigger>
  /** How far one clock step moves, in milliseconds. */
  readonly advance?: fc.Arbitrary<number>
  /**
   * Where a boundary step lands, in milliseconds from the model's next boundary (by default
   * `boundaryOffset`: on it, or 1 ms either side).
   */
  readonly toBoundary?: fc.Arbitrary<number>
}

/** A machine's default drawing of commands: its triggers, its clock steps, fast-check's constraints. */
export interface CommandDefaults<Trigger> {
  /** The triggers drawn when the options give none. */
  readonly triggers: fc.Arbitrary<Trigger>
  /** The clock steps (ms) drawn when the options give none. */
  readonly advance: fc.Arbitrary<number>
  /** fast-check's constraints, which the options' own override one by one. */
  readonly constraints: fc.CommandsContraints
}

/** The command a model-based property runs: one trigger, or one step of the clock. */
export type ModelCommand<State, Trigger, Answer, Observed> = fc.Command<
  ModelRun<State>,
  SystemUnderTest<Trigger, Answer, Observed>
>

/** `ModelCommand` for `fc.asyncModelRun`, when the system under test is asynchronous. */
export type AsyncModelCommand<State, Trigger, Answer, Observed> = fc.AsyncCommand<
  ModelRun<State>,
  SystemUnderTest<Trigger, Answer, Observed>
>

type Action<Trigger> =
  | { readonly _tag: "Trigger"; readonly trigger: Trigger }
  | { readonly _tag: "Advance"; readonly millis: number }
  | { readonly _tag: "ToBoundary"; readonly offsetMillis: number }

const describe = <Trigger>(show: (trigger: Trigger) => string, action: Action<Trigger>): string => {
  switch (action._tag) {
    case "Advance":
      return `advance(+${action.millis} ms)`
    case "ToBoundary": {
      const { offsetMillis } = action
      const offset = offsetMillis === 0 ? "" : ` ${offsetMillis < 0 ? "-" : "+"} ${Math.abs(offsetMillis)} ms`
      return `advance(to the next boundary${offset})`
    }
    case "Trigger":
      return show(action.trigger)
  }
}

/**
 * Where a boundary step moves the clock: the earliest of the model's boundaries that, moved by
 * `offsetMillis`, is not in the past; undefined when there is none (the step is skipped).
 */
const boundaryTarget = <State>(
  boundaries: ((state: State) => ReadonlyArray<number>) | undefined,
  run: Readonly<ModelRun<State>>,
  offsetMillis: number
): number | undefined => {
  const ahead = (boundaries?.(run.state) ?? []).map((at) => at + offsetMillis).filter((at) => at >= run.nowMillis)
  return ahead.length === 0 ? undefined : Math.min(...ahead)
}

/** Compares the system with the model; a ModelMismatch (a defect) when they differ. */
const agree = <State, Trigger, Answer, Observed>(
  model: ReferenceModel<State, Trigger, Answer, Observed>,
  run: ModelRun<State>,
  system: SystemUnderTest<Trigger, Answer, Observed>,
  step: string
): Effect.Effect<void, unknown> =>
  Effect.flatMap(system.observe, (observed) => {
    const differences = model.compare(run.state, observed, run.nowMillis)
    return differences.length === 0 ? Effect.void : Effect.die(new ModelMismatch(step, differences))
  })

const stepEffect = <State, Trigger, Answer, Observed>(
  model: ReferenceModel<State, Trigger, Answer, Observed>,
  action: Action<Trigger>,
  run: ModelRun<State>,
  system: SystemUnderTest<Trigger, Answer, Observed>
): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    if (!run.startChecked) {
      yield* agree(model, run, system, "the start")
      run.startChecked = true
    }
    if (action._tag === "Advance") run.nowMillis += action.millis
    if (action._tag === "ToBoundary") run.nowMillis = boundaryTarget(model.boundaries, run, action.offsetMillis) ?? run.nowMillis
    const step = `${describe(model.show, action)} at ${DateTime.formatIso(DateTime.makeUnsafe(run.nowMillis))}`
    if (action._tag === "Trigger") {
      const expected = model.apply(run.state, action.trigger, run.nowMillis)
      const answer = yield* system.apply(action.trigger, DateTime.makeUnsafe(run.nowMillis))
      if (!Equal.equals(answer, expected.answer)) {
        return yield* Effect.die(
          new ModelMismatch(step, [`the system answered ${showValue(answer)}, the model says ${showValue(expected.answer)}`])
        )
      }
      run.state = expected.state
    }
    yield* agree(model, run, system, step)
  })

class StepCommand<State, Trigger, Answer, Observed> implements ModelCommand<State, Trigger, Answer, Observed> {
  readonly model: ReferenceModel<State, Trigger, Answer, Observed>
  readonly action: Action<Trigger>
  constructor(model: ReferenceModel<State, Trigger, Answer, Observed>, action: Action<Trigger>) {
    this.model = model
    this.action = action
  }
  check(run: Readonly<ModelRun<State>>): boolean {
    switch (this.action._tag) {
      case "Advance":
        return true
      case "ToBoundary":
        return boundaryTarget(this.model.boundaries, run, this.action.offsetMillis) !== undefined
      case "Trigger":
        return this.model.canApply(run.state, this.action.trigger)
    }
  }
  effect(run: ModelRun<State>, system: SystemUnderTest<Trigger, Answer, Observed>): Effect.Effect<void, unknown> {
    return stepEffect(this.model, this.action, run, system)
  }
  run(run: ModelRun<State>, system: SystemUnderTest<Trigger, Answer, Observed>): void {
    Effect.runSync(this.effect(run, system))
  }
  toString(): string {
    return describe(this.model.show, this.action)
  }
}

class AsyncStepCommand<State, Trigger, Answer, Observed> implements AsyncModelCommand<State, Trigger, Answer, Observed> {
  readonly step: StepCommand<State, Trigger, Answer, Observed>
  constructor(step: StepCommand<State, Trigger, Answer, Observed>) {
    this.step = step
  }
  check(run: Readonly<ModelRun<State>>): boolean {
    return this.step.check(run)
  }
  run(run: ModelRun<State>, system: SystemUnderTest<Trigger, Answer, Observed>): Promise<void> {
    return Effect.runPromise(this.step.effect(run, system))
  }
  toString(): string {
    return this.step.toString()
  }
}

// One clock step for every three triggers: time matters (retries come due, codes expire) but most
// of a run should be triggers. For a model with boundaries, half the clock steps go to the next
// one (or 1 ms either side): random steps alone almost never land on an expiry to the millisecond.
const steps = <State, Trigger, Answer, Observed>(
  model: ReferenceModel<State, Trigger, Answer, Observed>,
  defaults: CommandDefaults<Trigger>,
  options: ModelCommandsOptions<Trigger>
): { readonly arbitrary: fc.Arbitrary<StepCommand<State, Trigger, Answer, Observed>>; readonly constraints: fc.CommandsContraints } => {
  const { advance = defaults.advance, toBoundary = boundaryOffset, triggers = defaults.triggers, ...constraints } = options
  const command = (action: Action<Trigger>) => new StepCommand(model, action)
  const clock = advance.map((millis) => command({ _tag: "Advance", millis }))
  return {
    arbitrary: fc.oneof(
      {
        weight: 1,
        arbitrary: model.boundaries === undefined
          ? clock
          : fc.oneof(clock, toBoundary.map((offsetMillis) => command({ _tag: "ToBoundary", offsetMillis })))
      },
      { weight: 3, arbitrary: triggers.map((trigger) => command({ _tag: "Trigger", trigger })) }
    ),
    constraints: { ...defaults.constraints, ...constraints }
  }
}

/**
 * Random sequences of triggers and clock steps for `fc.modelRun`: each step applies the trigger to
 * the model and to the system, compares their answers, then compares what the system holds with the
 * model. When the model has boundaries, half the clock steps are boundary steps: to the next one,
 * or 1 ms either side (`toBoundary`). `options` replace `defaults` (the triggers, the clock steps, fast-check's constraints). The
 * machines' own `webhookCommands`, `deliveryCommands` and `otpCommands` are this with their model;
 * use it directly for a model of your own.
 */
export const modelCommands = <State, Trigger, Answer, Observed>(
  model: ReferenceModel<State, Trigger, Answer, Observed>,
  defaults: CommandDefaults<Trigger>,
  options: ModelCommandsOptions<Trigger> = {}
): fc.Arbitrary<Iterable<ModelCommand<State, Trigger, Answer, Observed>>> => {
  const { arbitrary, constraints } = steps(model, defaults, options)
  return fc.commands([arbitrary], constraints)
}

/** `modelCommands` for `fc.asyncModelRun`, when the system under test is asynchronous. */
export const asyncModelCommands = <State, Trigger, Answer, Observed>(
  model: ReferenceModel<State, Trigger, Answer, Observed>,
  defaults: CommandDefaults<Trigger>,
  options: ModelCommandsOptions<Trigger> = {}
): fc.Arbitrary<Iterable<AsyncModelCommand<State, Trigger, Answer, Observed>>> => {
  const { arbitrary, constraints } = steps(model, defaults, options)
  return fc.commands([arbitrary.map((step) => new AsyncStepCommand(step))], constraints)
}

/**
 * The `{ model, real }` pair a model run starts from: the model's initial state and clock, and the
 * system (which must hold the same state: it is compared before the first step).
 */
export const modelSetup = <State, Trigger, Answer, Observed>(
  initial: State,
  system: SystemUnderTest<Trigger, Answer, Observed>,
  start: DateTime.Utc
): { model: ModelRun<State>; real: SystemUnderTest<Trigger, Answer, Observed> } => ({
  model: { state: initial, nowMillis: DateTime.toEpochMillis(start), startChecked: false },
  real: system
})

/** The instant model runs start at unless told otherwise: 2026-11-21T10:00:00Z. */
export const MODEL_START: DateTime.Utc = DateTime.makeUnsafe(Date.UTC(2026, 10, 21, 10, 0, 0))
