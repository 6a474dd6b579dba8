/**
 * The messaging tables of the memory store: the twins of migrations 0008 (platforms, templates,
 * broadcasts, messages, OTP verifications and cooldowns), 0009 (OTP reservations), 0024 (the
 * contacts' channel entries), 0027 (held statuses), 0036 (the monthly message allowance) and 0051
 * (campaigns); their constraints are in messaging-constraints.ts.
 */
import type { BroadcastStatus, Campaign, CampaignRecipient, Message, Platform, StatusReport, Template } from "@wasl/core/Messaging"
import type { OtpReservation, Verification } from "@wasl/core/Otp"
import type { ContactChannel } from "@wasl/core/Records"
import type { DateTime } from "effect"

/** A message template, with the account it belongs to. */
export interface TemplateRow extends Template {
  /** The account of the template. */
  readonly account_id: number
}

/** A broadcast as stored: its template and sending number by id. */
export interface BroadcastRow {
  /** The broadcast id (one sequence across accounts). */
  readonly id: number
  /** The account of the broadcast. */
  readonly account_id: number
  /** The broadcast's name. */
  readonly name: string
  /** The template's language code. */
  readonly language: string
  /** The template sent. */
  readonly template_id: number
  /** The sending number. */
  readonly platform_id: number
  /** Where the broadcast is in its life. */
  readonly status: BroadcastStatus
  /** Why it stopped, when it did. */
  readonly reason: string | null
  /** When it was made (the Clock's time). */
  readonly created_at: DateTime.Utc
  /** When it last changed. */
  readonly updated_at: DateTime.Utc
}

/** A contact's channel entry, with its account and contact. */
export interface ContactChannelRow extends ContactChannel {
  /** The account of the contact. */
  readonly account_id: number
  /** The contact's record id. */
  readonly contact_id: string
}

/** The messaging tables of `MemoryState`: sending numbers, broadcasts, messages and the OTP tables. */
export interface MessagingTables {
  /** Next id of each bigserial table: one sequence per table, across accounts. */
  readonly sequences: { readonly platforms: number; readonly templates: number; readonly broadcasts: number }
  /** By id (a Map keeps insertion order, which is id order). */
  readonly platforms: ReadonlyMap<number, Platform>
  /** Templates by id. */
  readonly templates: ReadonlyMap<number, TemplateRow>
  /** Broadcasts by id. */
  readonly broadcasts: ReadonlyMap<number, BroadcastRow>
  /** By `accountKey(account_id, id)`. */
  readonly messages: ReadonlyMap<string, Message>
  /** OTP verifications, by `accountKey(account_id, id)`. */
  readonly verifications: ReadonlyMap<string, Verification>
  /** The last accepted send, by `accountKey(account_id, recipient)`. */
  readonly cooldowns: ReadonlyMap<string, DateTime.Utc>
  /** By `accountKey(account_id, id)`, in the order they were opened. */
  readonly reservations: ReadonlyMap<string, OtpReservation>
  /** The contacts' channel entries, by `accountKey(account_id, id)`, oldest first. */
  readonly contactChannels: ReadonlyMap<string, ContactChannelRow>
  /** Statuses held for messages not stored yet, by `accountKey(account_id, "<provider id> <status>")`. */
  readonly statusHolds: ReadonlyMap<
    string,
    StatusReport & {
      readonly account_id: number
      readonly provider_message_id: string
      readonly tracking: string | null
      readonly created_at: DateTime.Utc
    }
  >
  /** Template messages used, by `accountKey(account_id, "<month's first day>")`. */
  readonly allowanceUsage: ReadonlyMap<string, number>
  /** The allowance of a `custom` plan, by account (`accounts.message_limit`); absent: none. */
  readonly messageLimits: ReadonlyMap<number, number>
  /** Campaigns, by `accountKey(account_id, id)`, in the order they were asked for. */
  readonly campaigns: ReadonlyMap<string, Campaign>
  /**
   * Each campaign's recipients by contact id, in audience order, by `accountKey(account_id,
   * campaign id)`. Their `messageStatus` is not kept here: it is read from their messages.
   */
  readonly campaignRecipients: ReadonlyMap<string, ReadonlyMap<string, CampaignRecipient>>
}

/** Messaging tables with no rows, every sequence at 1. */
export const emptyMessagingTables: MessagingTables = {
  sequences: { platforms: 1, templates: 1, broadcasts: 1 },
  platforms: new Map(),
  templates: new Map(),
  broadcasts: new Map(),
  messages: new Map(),
  verifications: new Map(),
  cooldowns: new Map(),
  reservations: new Map(),
  contactChannels: new Map(),
  statusHolds: new Map(),
  allowanceUsage: new Map(),
  messageLimits: new Map(),
  campaigns: new Map(),
  campaignRecipients: new Map()
}

/** The key of a row whose primary key is (account_id, key). Internal plumbing of the memory adapters. */
export const accountKey = (accountId: number, key: string): string => `${accountId}:${key}`
