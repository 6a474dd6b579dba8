/**
 * The OTP model-based property's pieces: the commands fast-check draws and the setup each run
 * starts from.
 */
import type { DateTime } from "effect"
import type * as fc from "fast-check"
import type { Verification } from "../messaging/otp-verification.ts"
import {
  asyncModelCommands,
  type AsyncModelCommand,
  type CommandDefaults,
  type ModelCommand,
  type ModelCommandsOptions,
  modelCommands,
  type ModelRun,
  MODEL_START,
  modelSetup
} from "./model-run.ts"
import { otpTrigger } from "./otp-arbitraries.ts"
import { type OtpAnswer, otpModel, type OtpModelState, type OtpTrigger } from "./otp-model.ts"
import { type OtpSystem, otpSystem } from "./otp-system.ts"
import { clockStep } from "./time-arbitraries.ts"

/** A command of the OTP property. */
export type OtpCommand = ModelCommand<OtpModelState, OtpTrigger, OtpAnswer, ReadonlyArray<Verification>>

/** A command of the OTP property for `fc.asyncModelRun`. */
export type OtpAsyncCommand = AsyncModelCommand<OtpModelState, OtpTrigger, OtpAnswer, ReadonlyArray<Verification>>

const DEFAULTS: CommandDefaults<OtpTrigger> = {
  triggers: otpTrigger,
  // Steps of up to two minutes against lifetimes of 1 to 10: runs see codes expire, and use them before.
  advance: clockStep(120_000),
  constraints: { maxCommands: 40, size: "max" }
}

/**
 * Random runs of the OTP model for `fc.modelRun`: `otpTrigger`s (sends, right and wrong codes) and
 * clock steps, half of up to two minutes, half to the live code's expiry or 1 ms either side; after
 * each step the system's answer and the stored verifications are compared with the model, and the
 * invariants checked. Options change the triggers, the clock steps (`advance`, `toBoundary`) and
 * fast-check's command constraints (at most 40 commands by default).
 *
 * @example
 * ```ts
 * fc.assert(fc.property(otpCommands(), (cmds) => fc.modelRun(otpModelSetup, cmds)))
 * ```
 */
export const otpCommands = (options: ModelCommandsOptions<OtpTrigger> = {}): fc.Arbitrary<Iterable<OtpCommand>> =>
  modelCommands(otpModel, DEFAULTS, options)

/** `otpCommands` for a system whose Effects are asynchronous, run with `fc.asyncModelRun`. */
export const otpAsyncCommands = (options: ModelCommandsOptions<OtpTrigger> = {}): fc.Arbitrary<Iterable<OtpAsyncCommand>> =>
  asyncModelCommands(otpModel, DEFAULTS, options)

/** Where an OTP run starts: the clock (MODEL_START by default) and the system under test. */
export interface OtpSetupOptions {
  /** When the run's clock starts (MODEL_START by default). */
  readonly start?: DateTime.Utc
  /** The system under test, holding no verification yet (by default `otpSystem()`). */
  readonly system?: OtpSystem
}

/**
 * A fresh start for one run of the OTP property: no verification yet, in the model and in the
 * system.
 *
 * @example
 * ```ts
 * fc.modelRun(otpModelSetup, cmds)
 * fc.modelRun(() => otpModelSetup({ system: otpSystem(myStore()) }), cmds)
 * ```
 */
export const otpModelSetup = (options: OtpSetupOptions = {}): { model: ModelRun<OtpModelState>; real: OtpSystem } =>
  modelSetup<OtpModelState, OtpTrigger, OtpAnswer, ReadonlyArray<Verification>>(
    [],
    options.system ?? otpSystem(),
    options.start ?? MODEL_START
  )
