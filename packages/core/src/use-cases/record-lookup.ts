/**
 * What the record use-cases (CRUD, lists, links, notes) share: the account's custom definitions
 * of a kind, finding a record of the account (404 otherwise), its REST shape, and queueing its
 * record event in the caller's transaction.
 */
import { Effect, Option, Schema } from "effect"
import type { ObjectKind } from "../auth/permission.ts"
import { NotFound } from "../errors.ts"
import { Outbox } from "../events/outbox.ts"
import { type EventAction, eventName, type EventSubject } from "../records/object-kind.ts"
import type { PropertyDefinition } from "../records/property-definition.ts"
import { PropertyRepository } from "../records/property-repository.ts"
import { RecordRepository, type RecordWithDerived } from "../records/record-repository.ts"
import { type RecordJson, recordJson } from "../records/record-shape.ts"
import { RecordId } from "../wire/record-id.ts"

export const isRecordId = Schema.is(RecordId)

/** The account's custom property definitions of the kind. */
export const customOf = (accountId: number, kind: ObjectKind) =>
  PropertyRepository.use((repo) => repo.list(accountId, kind))

export const shapeOf = (kind: ObjectKind, found: RecordWithDerived, custom: ReadonlyArray<PropertyDefinition>): RecordJson =>
  recordJson(kind, found.record, custom, found.derived)

export const orNotFound = <A>(option: Option.Option<A>) =>
  Option.match(option, { onNone: () => Effect.fail(new NotFound()), onSome: Effect.succeed })

/** The stored record of the account and kind, or NotFound (a malformed id included). */
export const findRecord = (
  accountId: number,
  kind: ObjectKind,
  id: string,
  custom: ReadonlyArray<PropertyDefinition>
) =>
  isRecordId(id)
    ? Effect.flatMap(RecordRepository.use((repo) => repo.get({ accountId, kind, id, custom })), orNotFound)
    : Effect.fail(new NotFound())

/** Queues one event of the kind in the current transaction. */
export const appendEvent = (
  accountId: number,
  kind: ObjectKind,
  subject: EventSubject,
  action: EventAction,
  payload: unknown
) => Outbox.use((outbox) => outbox.append([{ accountId, name: eventName(kind, subject, action), payload }]))

/** The REST shapes now of records of the account that must exist, the kind's definitions read once. */
export const currentShapes = (accountId: number, kind: ObjectKind, ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const custom = yield* customOf(accountId, kind)
    return yield* Effect.forEach(ids, (id) =>
      Effect.map(Effect.orDie(findRecord(accountId, kind, id, custom)), (found) => shapeOf(kind, found, custom)))
  })

/** Queues the `-updated` event of each of these records of the account, with its shape now. */
export const appendRecordsUpdated = (accountId: number, kind: ObjectKind, ids: ReadonlyArray<string>) =>
  Effect.flatMap(currentShapes(accountId, kind, ids), (shapes) =>
    Effect.forEach(shapes, (shape) => appendEvent(accountId, kind, "record", "updated", shape), { discard: true }))
