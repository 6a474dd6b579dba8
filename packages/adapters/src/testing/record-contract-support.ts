/**
 * What the record, note and property value contracts share: fresh accounts and ids, custom
 * property definitions, a clock set to an instant, conditions, and records in a comparable form.
 */
import { AccountRepository } from "@wasl/core/Accounts"
import {
  type Condition,
  type ContactChannel,
  type DerivedData,
  type FilterScalar,
  type FilterValueType,
  type ObjectKind,
  type PropertyDefinition,
  type PropertyType,
  type RecordListInput,
  type RecordListParams,
  type RecordWithDerived,
  type StoredRecord
} from "@wasl/core/Records"
import { makeRecordId, RecordId } from "@wasl/core/Wire"
import { DateTime, Effect } from "effect"
import { TestClock } from "effect/testing"

/** A new account; its id. */
export const newAccountId: Effect.Effect<number, never, AccountRepository> = Effect.flatMap(AccountRepository, (accounts) =>
  accounts.create({ name: "Records", plan: "business", webhookLimit: null, otpCredits: 0 }).pipe(
    Effect.map((account) => account.id)
  ))

/** A fresh record id. */
export const freshId = (): RecordId =>
  makeRecordId(Date.now() / 1000, globalThis.crypto.getRandomValues(new Uint8Array(8)))

/** `n` fresh record ids in ascending order (the order ties are broken in). */
export const freshIds = (n: number): Array<RecordId> => Array.from({ length: n }, freshId).sort()

/** A custom property definition of the account (only its id, kind, name and type matter to the records). */
export const customProperty = (
  accountId: number,
  kind: ObjectKind,
  internalName: string,
  type: PropertyType,
  options: ReadonlyArray<string> = []
): PropertyDefinition => ({
  _id: freshId(),
  type,
  name: { en: internalName },
  desc: null,
  internal_name: internalName,
  group_id: freshId(),
  ...(type === "single_select" || type === "multi_select"
    ? { enum: options.map((o) => ({ en: o, ar: o, internal_name: o })) }
    : {}),
  account_id: accountId,
  made_by: null,
  created_at: DateTime.makeUnsafe(0),
  updated_at: DateTime.makeUnsafe(0),
  kind,
  builtin: false,
  readOnly: false,
  required: false
})

/** Runs `effect` on a TestClock set to `iso`. */
export const atTime = <A, E, R>(iso: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, TestClock.TestClock>> =>
  Effect.andThen(TestClock.setTime(Date.parse(iso)), effect).pipe(Effect.provide(TestClock.layer()))

/** A condition as the core's parser produces it. */
export const condition = (
  property: string,
  type: FilterValueType,
  operator: Condition["operator"],
  value?: FilterScalar | ReadonlyArray<FilterScalar>
): Condition =>
  (value === undefined
    ? { _tag: "Condition", property, type, operator }
    : { _tag: "Condition", property, type, operator, value }) as Condition

/** A contact channel with its `created_at` as ISO text. */
export type ComparableChannel = Omit<ContactChannel, "created_at"> & { readonly created_at: string }

/** What `comparable` makes of a record. */
export interface ComparableRecord {
  /** The record id. */
  readonly _id: string
  /** The account of the record. */
  readonly account_id: number
  /** The values as read. */
  readonly values: StoredRecord["values"]
  /** `created_at` as ISO text. */
  readonly created_at: string
  /** `updated_at` as ISO text. */
  readonly updated_at: string
  /** The derived data, a contact's channels with their `created_at` as ISO text. */
  readonly derived: Omit<DerivedData, "channels"> & {
    readonly channels?: ReadonlyArray<ContactChannel | ComparableChannel> | undefined
  }
}

/** A record as read, with its timestamps as ISO strings (comparable with `deepStrictEqual`). */
export const comparable = (found: RecordWithDerived): ComparableRecord => ({
  _id: found.record._id,
  account_id: found.record.account_id,
  values: found.record.values,
  created_at: DateTime.formatIso(found.record.created_at),
  updated_at: DateTime.formatIso(found.record.updated_at),
  derived: {
    ...found.derived,
    ...(found.derived.channels === undefined
      ? {}
      : { channels: found.derived.channels.map((c) => ({ ...c, created_at: DateTime.formatIso(c.created_at) })) })
  }
})

/** The ids of a page's rows, in order. */
export const idsOf = (rows: ReadonlyArray<RecordWithDerived>): Array<string> => rows.map((row) => row.record._id)

/** The ids in ascending order. */
export const sortedIds = (ids: ReadonlyArray<string>): Array<string> => [...ids].sort()

/** `RecordId` for a plain string (a property id the value store takes). */
export const asRecordId = (id: string): RecordId => RecordId.make(id)

/** A list of every record of the kind on one page (up to 100), newest first, unless `params` say otherwise. */
export const listInput = (
  accountId: number,
  kind: ObjectKind,
  custom: ReadonlyArray<PropertyDefinition>,
  params: Partial<RecordListParams> = {}
): RecordListInput => ({
  accountId,
  kind,
  custom,
  filters: [],
  search: undefined,
  order: "created_at",
  direction: "desc",
  page: 1,
  perPage: 100,
  ...params
})
