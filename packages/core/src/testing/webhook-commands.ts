/**
 * The webhook model-based property's pieces: the commands fast-check draws and the setup each run
 * starts from.
 */
import type { DateTime } from "effect"
import type * as fc from "fast-check"
import { clockStep } from "./time-arbitraries.ts"
import { webhookTrigger } from "./webhook-arbitraries.ts"
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
import { type WebhookAnswer, webhookModel, type WebhookModelState, type WebhookSnapshot, type WebhookTrigger } from "./webhook-model.ts"
import { type WebhookSystem, webhookSystem } from "./webhook-system.ts"

/** A command of the webhook property. */
export type WebhookCommand = ModelCommand<WebhookModelState, WebhookTrigger, WebhookAnswer, WebhookSnapshot | null>

/** A command of the webhook property for `fc.asyncModelRun`. */
export type WebhookAsyncCommand = AsyncModelCommand<WebhookModelState, WebhookTrigger, WebhookAnswer, WebhookSnapshot | null>

const DEFAULTS: CommandDefaults<WebhookTrigger> = {
  triggers: webhookTrigger,
  advance: clockStep(86_400_000),
  constraints: { size: "+1" }
}

/**
 * Random runs of the webhook model for `fc.modelRun`: `webhookTrigger`s and clock steps of up to a
 * day; after each step the system's answer and the stored webhook are compared with the model, and
 * the invariants checked. Options change the triggers, the clock steps and fast-check's command
 * constraints (`size: "+1"` by default).
 *
 * @example
 * ```ts
 * import * as fc from "fast-check"
 * import { webhookCommands, webhookModelSetup } from "@wasl/core/testing"
 *
 * fc.assert(fc.property(webhookCommands(), (cmds) => fc.modelRun(webhookModelSetup, cmds)))
 * ```
 */
export const webhookCommands = (
  options: ModelCommandsOptions<WebhookTrigger> = {}
): fc.Arbitrary<Iterable<WebhookCommand>> => modelCommands(webhookModel, DEFAULTS, options)

/**
 * `webhookCommands` for a system whose Effects are asynchronous (a database, say), run with
 * `fc.asyncModelRun` inside `fc.asyncProperty`.
 *
 * @example
 * ```ts
 * await fc.assert(fc.asyncProperty(webhookAsyncCommands(), (cmds) =>
 *   fc.asyncModelRun(() => webhookModelSetup({ system: webhookSystem(myDatabaseStore()) }), cmds)))
 * ```
 */
export const webhookAsyncCommands = (
  options: ModelCommandsOptions<WebhookTrigger> = {}
): fc.Arbitrary<Iterable<WebhookAsyncCommand>> => asyncModelCommands(webhookModel, DEFAULTS, options)

/** Where a webhook run starts: the clock (MODEL_START by default) and the system under test. */
export interface WebhookSetupOptions {
  /** When the run's clock starts (MODEL_START by default). */
  readonly start?: DateTime.Utc
  /** The system under test, holding no webhook yet (by default `webhookSystem()`). */
  readonly system?: WebhookSystem
}

/**
 * A fresh start for one run of the webhook property: no webhook, in the model and in the system.
 * Pass it to `fc.modelRun` as it is, or wrapped to give options.
 *
 * @example
 * ```ts
 * fc.modelRun(webhookModelSetup, cmds)
 * fc.modelRun(() => webhookModelSetup({ system: mySystem() }), cmds)
 * ```
 */
export const webhookModelSetup = (
  options: WebhookSetupOptions = {}
): { model: ModelRun<WebhookModelState>; real: WebhookSystem } =>
  modelSetup<WebhookModelState, WebhookTrigger, WebhookAnswer, WebhookSnapshot | null>(
    null,
    options.system ?? webhookSystem(),
    options.start ?? MODEL_START
  )
